import ArgumentParser
import CairnCheckIns
import CairnCore

/// `cairn checkins`: batch check-in validation.
struct CheckInsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkins",
        abstract: "Validate check-ins against places, events and joins.",
        subcommands: [CheckInValidateCommand.self]
    )
}

extension CheckInAccuracyPolicy: ExpressibleByArgument {}
extension CheckInOutputFormat: ExpressibleByArgument {}
extension CheckInInputFormat: ExpressibleByArgument {}
