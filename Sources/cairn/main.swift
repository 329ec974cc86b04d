import CairnCLI

/// The `cairn` executable: the commands of CairnCLI (`cairn serve` runs the separate `cairn-server` executable).
CairnCommand.main()
