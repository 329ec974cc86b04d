import CairnCore
import CairnIO

/// What one reference row gives.
enum ReferenceRow<Item: Sendable>: Sendable {
    case item(Item)
    case skip(String)
}
