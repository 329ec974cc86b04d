import CairnCLI

CairnCommand.main()
