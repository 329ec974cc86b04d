import CairnCore
import CairnIO

struct JoinColumns: ReferenceColumns {
    let user, event: Int

    init(resolving header: [String]) {
        user = Self.position(of: .user, in: header)
        event = Self.position(of: .event, in: header)
    }

    var required: [(name: String, position: Int)] { [("userId", user), ("eventId", event)] }
}
