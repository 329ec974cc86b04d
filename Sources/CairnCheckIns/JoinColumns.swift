import CairnCore
import CairnIO
import CairnStore
import Dispatch
import Foundation

struct JoinColumns: ReferenceColumns {
    let user, event: Int

    init(resolving header: [String]) {
        user = position(["user", "userid", "user_id"], in: header)
        event = position(["event", "eventid", "event_id"], in: header)
    }

    var required: [(name: String, position: Int)] { [("userId", user), ("eventId", event)] }
}
