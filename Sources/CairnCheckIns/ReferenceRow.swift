import CairnCore
import CairnIO
import CairnStore
import Dispatch
import Foundation

/// What one reference row gives.
enum ReferenceRow<Item: Sendable>: Sendable {
    case item(Item)
    case skip(String)
}
