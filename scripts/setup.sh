# Shared by scripts/run and scripts/test: installs the system packages Cairn needs when they are missing.
# Sourced, not executed.

CAIRN_APT_PACKAGES=(libproj-dev proj-data libgeos-dev libsqlite3-dev zlib1g-dev pkg-config)

cairn_install_dependencies() {
    local missing=()
    for package in "${CAIRN_APT_PACKAGES[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "==> installing ${missing[*]}" >&2
        local sudo=""
        if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
    if ! command -v swift >/dev/null 2>&1; then
        if [ -x /opt/swift/usr/bin/swift ]; then
            export PATH="/opt/swift/usr/bin:$PATH"
        else
            echo "error: swift is not installed; install Swift 6.1 or later from https://swift.org/install" >&2
            exit 1
        fi
    fi
}
