import CairnCLI
import CairnServer
import CairnTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /checkins/validate` answers the verdict rows `cairn checkins validate --db` writes.
@Suite struct ServerCheckInTests {
    let fixture: ServerFixture
    let checkIns = """
        id,user,event,place,lat,lon,time
        ok,ann,gig,,60.17,24.94,2026-06-01T18:30:00Z
        late,bob,gig,,60.17,24.94,2026-06-01T20:00:00Z
        far,cat,gig,,60.18,24.94,2026-06-01T18:30:00Z
        ghost,dan,nothing,,60.17,24.94,2026-06-01T18:30:00Z
        bad,eve,,hall,91,0,2026-06-01T18:30:00Z
        short,fay

        """

    init() throws {
        fixture = try ServerFixture(csv: "id,name,lat,lon,radius\nhall,Hall,60.17,24.94,100m\n")
        let events = try fixture.folder.write("events.csv", "id,name,placeId,startTime,endTime\ngig,Gig,hall,2026-06-01T18:00:00Z,2026-06-01T20:00:00Z\n")
        var command = try CairnCommand.parseAsRoot(["import", events, "--db", fixture.db, "--kind", "event", "--no-progress"])
        try command.run()
    }

    @Test(arguments: ["csv", "jsonl"])
    func verdictsAreTheCLIs(format: String) async throws {
        let file = try fixture.folder.write("checkins.csv", checkIns)
        let expected = try fixture.cli(["checkins", "validate", "--checkins", file, "--format", format])
        let body = checkIns
        let served = try await fixture.withServer { (client: any TestClientProtocol) async throws in
            try await client.call("/checkins/validate?format=\(format)", method: .post, headers: [.contentType: "text/csv"], body: body)
        }
        #expect(served.status == .ok)
        #expect(served.body == expected)
        #expect(served.body.contains(format == "csv" ? "ghost,invalid,unknown_event" : "\"checkin_id\":\"ghost\",\"verdict\":\"invalid\",\"reason\":\"unknown_event\""))
    }

    @Test func aHeaderWithoutTheRequiredColumnsIs400() async throws {
        let served = try await fixture.withServer { (client: any TestClientProtocol) async throws in
            try await client.call("/checkins/validate", method: .post, headers: [.contentType: "text/csv"], body: "who,where\nann,here\n")
        }
        #expect(served.status == .badRequest, "\(served.body)")
        #expect(try !errorBody(served.body).error.isEmpty)
    }
}
