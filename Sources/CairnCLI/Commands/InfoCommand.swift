import ArgumentParser
import CairnCore
import CairnIO
import CairnStore

/// The two shapes `cairn info` prints.
enum InfoFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `cairn info`: what the store holds.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the store's feature counts per kind, bounding box and file size."
    )

    @Option(help: "Output format.")
    var format: InfoFormat = .text

    @OptionGroup var store: StoreOptions

    func run() throws {
        let info = try store.open(create: false).info()
        switch format {
        case .json: print(Self.json(info, path: store.path))
        case .text: print(Self.text(info, path: store.path))
        }
    }

    static func json(_ info: StoreInfo, path: String) -> String {
        let byKind = FeatureKind.allCases.map { "\"\($0.rawValue)\":\(info.count(of: $0))" }.joined(separator: ",")
        var text = "{\"path\":\(TextEscaping.jsonString(path)),\"features\":\(info.featureCount),\"byKind\":{\(byKind)},\"bbox\":"
        if let box = info.bounds {
            text += "{\"west\":\(TextEscaping.jsonNumber(box.minLongitude)),\"south\":\(TextEscaping.jsonNumber(box.minLatitude)),"
            text += "\"east\":\(TextEscaping.jsonNumber(box.maxLongitude)),\"north\":\(TextEscaping.jsonNumber(box.maxLatitude))}"
        } else {
            text += "null"
        }
        return text + ",\"fileSizeBytes\":\(info.fileSizeBytes)}"
    }

    static func text(_ info: StoreInfo, path: String) -> String {
        var lines = ["store     \(path) (\(Terminal.bytes(info.fileSizeBytes)))", "features  \(Terminal.grouped(info.featureCount))"]
        for kind in FeatureKind.allCases {
            lines.append("  \(kind.rawValue.padding(toLength: 10))\(Terminal.grouped(info.count(of: kind)))")
        }
        if let box = info.bounds {
            lines.append("bbox      west \(box.minLongitude), south \(box.minLatitude), east \(box.maxLongitude), north \(box.maxLatitude)")
        } else {
            lines.append("bbox      none (the store is empty)")
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The string padded with spaces on the right to `length` characters.
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
