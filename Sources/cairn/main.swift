import ArgumentParser
import CairnCLI

/// The `cairn` executable: the commands of CairnCLI and `cairn serve`, which only this target links (so that the
/// CLI's library and its tests build without the server's dependencies).
struct Cairn: AsyncParsableCommand {
    static let configuration: CommandConfiguration = {
        var configuration = CairnCommand.configuration
        configuration.subcommands.append(ServeCommand.self)
        return configuration
    }()
}

await CairnCommand.main(root: Cairn.self)
