import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Judges check-ins against places (centre + radius, or an area), events (place + time window) and optional joins
/// (ARCHITECTURE.md, "Check-in rule"): each gets `valid` or exactly one `CheckInReason`.
///
/// The tests, in order: coordinate (`invalid_coordinate`), time (`invalid_time`), the claimed event or place
/// (`unknown_event`, `unknown_place`; with neither, the point is matched by containment, or `no_match`; with
/// both, the place must be the event's, else `place_mismatch`: the check-in is judged against the event's place),
/// distance from the place's centre under the model (`outside_radius`, with the exact distance), or for a place
/// with an area, whether the area covers the point (`outside_area`, with the distance to its boundary), the event's
/// window `start <= time < end` (`before_start`, `after_end`), joins when given (`not_joined`). Duplicates
/// (`duplicate`) need input order and live in a `CheckInLedger`; `validate(_:)` does both.
///
/// Distances are decided exactly: a haversine with the place's cached cosine and spherical bounds
/// (`DistanceBounds`) settle most points, the chord bound (`GeodesicChord`, micrometres wide) nearly all the
/// ones near the edge, the model's full geodesic the rest, so the verdict equals
/// `distanceMeters(from: centre, to: point, model:) <= radius` bit for bit.
///
/// A place with an area (`CheckInPlace.shape`) is judged by the area alone, its radius unused: `Shape.covers`
/// (exact, planar in longitude/latitude, boundary inside); outside, `ShapeBoundaryDistance.meters` (WGS84
/// geodesic, within 0.1 mm, whatever the model) is the distance, and under the lenient policy the point is
/// valid when that distance is at most the accuracy. Places without an area pay one test of an empty array per
/// check-in for this.
///
/// Immutable after `init` and `Sendable`: many threads may judge with one validator.
public struct CheckInValidator: Sendable {
    /// The distance model.
    public let model: DistanceModel
    /// How GPS accuracy counts.
    public let accuracyPolicy: CheckInAccuracyPolicy
    /// Whether `not_joined` is decided (joins were given).
    public let requiresJoins: Bool

    let bounds: DistanceBounds
    /// Place ids, numbered in input order (first occurrence wins).
    package let placeKeys: KeyTable
    /// Per place, `Self.placeStride` doubles (one cache line): latitude, longitude, radius, cos(latitude),
    /// accept and reject haversine thresholds, and the centre's `GeodesicChord` coordinates (N cos φ, N (1 − e²) sin φ).
    let placeData: ContiguousArray<Double>
    /// Event ids, numbered in input order (first occurrence wins).
    package let eventKeys: KeyTable
    /// Each event's window (seconds since 1970) and place index (-1 when it has none), packed so that a
    /// check-in's event costs one cache line.
    let eventRecords: ContiguousArray<EventRecord>
    /// Events by place, each place's sorted by start: `placeEvents[placeEventStarts[p] ..< placeEventStarts[p + 1]]`.
    let placeEventStarts: ContiguousArray<Int32>
    let placeEvents: ContiguousArray<Int32>
    /// The places' circles, for point-only check-ins, and each place's circle.
    let circles: CircleIndex
    let placeCircles: ContiguousArray<Circle>
    /// Each place's area, or nil; empty when no place has one (then the circle path reads nothing more).
    let placeShapes: ContiguousArray<Shape?>
    /// With areas: the place of each circle in `circles` (places with an area are not in it), and the extents
    /// of the areas' parts (items are place indices). Empty when no place has an area.
    let circlePlaces: ContiguousArray<Int32>
    let shapeExtents: ShapeExtentIndex
    /// With areas: each place's box over every vertex of its area (west, south, east, north; 4 per place, zeros
    /// for a place without one). Empty when no place has an area.
    let placeAreaBoxes: ContiguousArray<Double>
    /// Users named in joins, and the joined (event, user) pairs.
    let joinUsers: KeyTable
    let joinPairs: PairSet
    /// Whether an `outside_radius` distance may be any value with the same millimetre ceiling as the exact one
    /// (`CheckInMillimetres.ceiling`) instead of the exact one: set by `printingDistances()` for the batch
    /// pipeline, which prints no more than that; the public API keeps the exact distance.
    package private(set) var distancesForPrinting = false

    static let placeStride = 8

    /// Rows dropped while building: places or events whose id was already taken (the first wins), and joins
    /// naming an unknown event.
    public let ignoredPlaces: Int
    public let ignoredEvents: Int
    public let ignoredJoins: Int
    /// A sum of look-ahead lookups made while building (kept only so they are not optimised away).
    let buildWarmup: Int

    /// Builds a validator.
    ///
    /// - Parameters:
    ///   - places: the places; a repeated id keeps its first circle.
    ///   - events: the events; a repeated id keeps the first. An event whose place id is not among the places
    ///     defines that place with its own circle (the first such event wins; without a place id, the place is
    ///     named after the event); without a circle its check-ins get `unknown_place`.
    ///   - joins: who joined what; when given (even empty), check-ins to events need a join (`not_joined`).
    ///   - model: the distance model, `.wgs84` by default.
    ///   - accuracyPolicy: how GPS accuracy counts, `.ignore` by default.
    /// - Complexity: O((p + e) log(p + e) + j) for p places, e events and j joins.
    public init(places: some Sequence<CheckInPlace>, events: some Sequence<CheckInEvent>,
                joins: (some Sequence<CheckInJoin>)? = [CheckInJoin]?.none,
                model: DistanceModel = .wgs84, accuracyPolicy: CheckInAccuracyPolicy = .ignore) {
        self.init(placeRows: CheckInPlaceRows(places), eventRows: CheckInEventRows(events), joins: joins,
                  model: model, accuracyPolicy: accuracyPolicy)
    }

    /// Builds a validator from places and events as read (ids as bytes, hashed): as `init(places:events:...)`.
    /// - Complexity: O((p + e) log(p + e) + j) for p places, e events and j joins.
    package init(placeRows: CheckInPlaceRows, eventRows: CheckInEventRows,
                 joins: (some Sequence<CheckInJoin>)? = [CheckInJoin]?.none,
                 model: DistanceModel = .wgs84, accuracyPolicy: CheckInAccuracyPolicy = .ignore) {
        self.model = model
        self.accuracyPolicy = accuracyPolicy
        let bounds = DistanceBounds(model)
        self.bounds = bounds
        var placeKeys = KeyTable()
        var placeData = ContiguousArray<Double>()
        var placeCircles = ContiguousArray<Circle>()
        var ignoredPlaces = 0
        func addPlace(_ id: UnsafeRawBufferPointer, hash: UInt64, _ circle: Circle) -> Int32? {
            let (index, inserted) = placeKeys.insert(id, hash: hash)
            guard inserted else { return nil }
            Self.appendRecord(of: circle, model: model, to: &placeData)
            placeCircles.append(circle)
            return Int32(index)
        }

        // Two threads: one numbers the places (first occurrence wins) and works out their circle tests, the
        // other numbers the event ids (first occurrence wins). Then both look the events' place names up among
        // the places, half each. Then, in order, events whose place was not among them may define it with their
        // own circle; a second pass looks again for those still unknown, so an event may name a place another
        // event defines later in the file. Ids stay bytes throughout, hashed where they were read.
        let keysBox = CheckInBuildBox(KeyTable())
        let repeatedBox = CheckInBuildBox([Bool]())
        let placesBox = CheckInBuildBox((keys: KeyTable(), data: ContiguousArray<Double>(),
                                         circles: ContiguousArray<Circle>(), ignored: 0, warm: 0,
                                         shapes: [(place: Int, shape: Shape)]()))
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            if part == 1 {
                var keys = KeyTable()
                var repeated = [Bool](repeating: false, count: eventRows.count)
                let ids = eventRows.ids
                for i in 0..<ids.count where !ids.withId(i, { keys.insert($0, hash: $1).inserted }) { repeated[i] = true }
                keysBox.value = keys
                repeatedBox.value = repeated
                return
            }
            // Places go in blocks of 16: their ids are looked up first (independent lookups whose cache misses
            // overlap), then inserted; `warm` keeps the look-ahead reads from being optimised away.
            var built = placesBox.value
            let ids = placeRows.ids, circles = placeRows.circles
            var shapeRows = placeRows.shapes[...]
            built.data.reserveCapacity(Self.placeStride * circles.count)
            built.circles.reserveCapacity(circles.count)
            var start = 0
            while start < circles.count {
                let block = start ..< min(circles.count, start + 16)
                for row in block { built.warm &+= ids.withId(row) { built.keys.index(of: $0, hash: $1) } }
                for row in block {
                    let (index, inserted) = ids.withId(row) { built.keys.insert($0, hash: $1) }
                    while let first = shapeRows.first, first.row < row { shapeRows.removeFirst() }
                    guard inserted else { built.ignored += 1; continue }
                    Self.appendRecord(of: circles[row], model: model, to: &built.data)
                    built.circles.append(circles[row])
                    if let first = shapeRows.first, first.row == row { built.shapes.append((index, first.shape)) }
                }
                start += 16
            }
            placesBox.value = built
        }
        (placeKeys, placeData, placeCircles) = (placesBox.value.keys, placesBox.value.data, placesBox.value.circles)
        ignoredPlaces = placesBox.value.ignored
        let warm = placesBox.value.warm
        let shapedPlaces = placesBox.value.shapes
        let givenPlaces = placeKeys
        let names = eventRows.placeNames
        let halves = [CheckInBuildBox([Int32]()), CheckInBuildBox([Int32]())]
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            let range = part == 0 ? 0 ..< names.count / 2 : names.count / 2 ..< names.count
            halves[part].value = range.map { row in Int32(names.withId(row) { givenPlaces.index(of: $0, hash: $1) }) }
        }
        var eventKeys = keysBox.value
        let repeated = repeatedBox.value, found = halves[0].value + halves[1].value
        var eventRecords = ContiguousArray<EventRecord>()
        eventRecords.reserveCapacity(eventRows.count)
        var ignoredEvents = 0
        var pending: [(record: Int, row: Int)] = []
        for row in 0..<eventRows.count {
            if repeated[row] { ignoredEvents += 1; continue }
            var place = Int(found[row])
            if place < 0 {
                place = names.withId(row) { name, hash in
                    var place = placeKeys.index(of: name, hash: hash)
                    if place < 0, let circle = eventRows.circles[row] { place = Int(addPlace(name, hash: hash, circle) ?? -1) }
                    return place
                }
                if place < 0 { pending.append((eventRecords.count, row)) }
            }
            let window = eventRows.windows[row]
            eventRecords.append(EventRecord(start: window.start.secondsSince1970, end: window.end.secondsSince1970,
                                            place: Int32(place)))
        }
        for (record, row) in pending {
            let old = eventRecords[record]
            let place = names.withId(row) { placeKeys.index(of: $0, hash: $1) }
            eventRecords[record] = EventRecord(start: old.start, end: old.end, place: Int32(place))
        }

        // Events per place, by start then input order (`RadixSort` on the place, then a sort per place),
        // while another thread builds the circle index.
        let placeCount = placeKeys.count
        // Places with an area leave the circle index (their radius is not the rule) for an index of their extents.
        var placeShapes = ContiguousArray<Shape?>()
        var circlePlaces = ContiguousArray<Int32>()
        var circleInput = placeCircles
        if !shapedPlaces.isEmpty {
            placeShapes = ContiguousArray(repeating: nil, count: placeCount)
            for (place, shape) in shapedPlaces { placeShapes[place] = shape }
            circleInput = []
            for place in 0..<placeCount where placeShapes[place] == nil {
                circlePlaces.append(Int32(place))
                circleInput.append(placeCircles[place])
            }
        }
        let circleBox = CheckInBuildBox<CircleIndex?>(nil)
        let extentBox = CheckInBuildBox<(ShapeExtentIndex, ContiguousArray<Double>)?>(nil)
        let sortedBox = CheckInBuildBox<(ContiguousArray<Int32>, ContiguousArray<Int32>)>(([], []))
        let records = eventRecords, circleList = circleInput
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            if part == 0 {
                circleBox.value = CircleIndex(circleList)
                // The areas' extent tree on this thread too: with many parks it is the larger of the two.
                var extentEntries: [ShapeExtentIndex.Entry] = []
                var boxes = ContiguousArray<Double>(repeating: 0, count: shapedPlaces.isEmpty ? 0 : 4 * placeCount)
                extentEntries.reserveCapacity(shapedPlaces.count)
                for (place, shape) in shapedPlaces {
                    let first = extentEntries.count
                    shape.appendPartExtents(item: place, to: &extentEntries)
                    // The box over every vertex is the union of the parts' boxes (the parts hold every position, and
                    // min and max are exact), without a second pass over the vertices.
                    var west = Double.infinity, south = Double.infinity, east = -Double.infinity, north = -Double.infinity
                    for entry in extentEntries[first...] {
                        west = min(west, entry.west)
                        east = max(east, entry.east)
                        south = min(south, entry.south)
                        north = max(north, entry.north)
                    }
                    (boxes[4 * place], boxes[4 * place + 1], boxes[4 * place + 2], boxes[4 * place + 3]) = (west, south, east, north)
                }
                extentBox.value = (ShapeExtentIndex(extentEntries), boxes)
                return
            }
            var starts = ContiguousArray<Int32>(repeating: 0, count: placeCount + 1)
            var placeOfEvent: [UInt32] = [], events: [Int32] = []
            placeOfEvent.reserveCapacity(records.count)
            events.reserveCapacity(records.count)
            for (event, record) in records.enumerated() where record.place >= 0 {
                starts[Int(record.place) + 1] += 1
                placeOfEvent.append(UInt32(record.place))
                events.append(Int32(event))
            }
            for p in 0..<placeCount { starts[p + 1] += starts[p] }
            // One pass (a counting sort) while the places fit in 2^20 buckets, two beyond.
            let placeBits = UInt32(placeCount).bitWidth - UInt32(placeCount).leadingZeroBitCount
            RadixSort.sort(keys: &placeOfEvent, values: &events, bits: placeBits, digitBits: min(max(placeBits, 1), 20))
            var byPlace = ContiguousArray(events)
            for p in 0..<placeCount where starts[p + 1] - starts[p] > 1 {
                byPlace[Int(starts[p]) ..< Int(starts[p + 1])].sort {
                    (records[Int($0)].start, $0) < (records[Int($1)].start, $1)
                }
            }
            sortedBox.value = (starts, byPlace)
        }
        let (starts, byPlace) = sortedBox.value

        var joinUsers = KeyTable()
        var joinPairs = PairSet()
        var ignoredJoins = 0
        if let joins {
            for join in joins {
                let event = eventKeys.index(of: join.eventId)
                guard event >= 0 else { ignoredJoins += 1; continue }
                let user = joinUsers.insert(join.userId).index
                _ = joinPairs.insert(UInt64(event) << 32 | UInt64(user))
            }
        }
        requiresJoins = joins != nil

        self.circles = circleBox.value ?? CircleIndex(circleInput)
        self.placeCircles = placeCircles
        self.placeShapes = placeShapes
        self.circlePlaces = circlePlaces
        self.shapeExtents = extentBox.value?.0 ?? ShapeExtentIndex([])
        self.placeAreaBoxes = extentBox.value?.1 ?? []
        placeKeys.prepareForLookups()
        eventKeys.prepareForLookups()
        self.placeKeys = placeKeys
        self.placeData = largeArray(copying: placeData)
        self.eventKeys = eventKeys
        self.eventRecords = largeArray(copying: eventRecords)
        self.placeEventStarts = starts
        self.placeEvents = byPlace
        self.joinUsers = joinUsers
        self.joinPairs = joinPairs
        self.ignoredPlaces = ignoredPlaces
        self.ignoredEvents = ignoredEvents
        self.ignoredJoins = ignoredJoins
        self.buildWarmup = warm
    }

    /// Appends a place's `placeStride` doubles to `data`: latitude, longitude, radius, cos(latitude), accept
    /// and reject haversine thresholds, the chord bound's two coordinates.
    static func appendRecord(of circle: Circle, model: DistanceModel, to data: inout ContiguousArray<Double>) {
        let test = CircleTest(latitude: circle.center.latitude, longitude: circle.center.longitude,
                              radiusMeters: circle.radiusMeters, model: model)
        data.append(circle.center.latitude)
        data.append(circle.center.longitude)
        data.append(circle.radiusMeters)
        data.append(test.cosLatitude)
        data.append(test.acceptHaversine)
        data.append(test.rejectHaversine)
        let (axisDistance, height) = GeodesicChord.meridianPlaneMeters(latitude: circle.center.latitude,
                                                                       cosLatitude: test.cosLatitude)
        data.append(axisDistance)
        data.append(height)
    }

    /// This validator, with `outside_radius` distances that are exact to the printed millimetre only (see
    /// `distancesForPrinting`): most such distances then need no geodesic.
    /// - Complexity: O(1) (the tables are shared).
    package func printingDistances() -> CheckInValidator {
        var copy = self
        copy.distancesForPrinting = true
        return copy
    }

    // MARK: - Looking things up

    /// The number of places (including those defined by events' own circles).
    /// - Complexity: O(1).
    public var placeCount: Int { placeKeys.count }

    /// The number of events.
    /// - Complexity: O(1).
    public var eventCount: Int { eventKeys.count }

    /// The place at `index` (`CheckInResult.placeIndex`).
    /// - Complexity: O(n) in the id's length.
    public func place(at index: Int) -> CheckInPlace {
        CheckInPlace(id: placeKeys.key(at: index), circle: placeCircles[index], shape: shape(ofPlace: index))
    }

    /// The area of the place at `index` (a Polygon or MultiPolygon), or nil when its circle is the rule.
    /// - Complexity: O(1).
    public func shape(ofPlace index: Int) -> Shape? { placeShapes.isEmpty ? nil : placeShapes[index] }

    /// The id of the place at `index`.
    /// - Complexity: O(n) in the id's length.
    public func placeId(at index: Int) -> String { placeKeys.key(at: index) }

    /// The radius of the place at `index`, metres.
    /// - Complexity: O(1).
    public func radiusMeters(ofPlace index: Int) -> Double { placeData[Self.placeStride * index + 2] }

    /// The id of the event at `index`.
    /// - Complexity: O(n) in the id's length.
    public func eventId(at index: Int) -> String { eventKeys.key(at: index) }

    /// The window of the event at `index`.
    /// - Complexity: O(1).
    public func window(ofEvent index: Int) -> TimeWindow {
        let start = Timestamp(secondsSince1970: eventRecords[index].start)
        let end = Timestamp(secondsSince1970: eventRecords[index].end)
        return (try? TimeWindow(start: start, end: end)) ?? TimeWindow(instant: start)
    }

    /// The index of the place with id `id`, if any.
    /// - Complexity: O(n) in the id's length, expected.
    public func placeIndex(of id: String) -> Int? {
        let index = placeKeys.index(of: id)
        return index >= 0 ? index : nil
    }

    /// The index of the event with id `id`, if any.
    /// - Complexity: O(n) in the id's length, expected.
    public func eventIndex(of id: String) -> Int? {
        let index = eventKeys.index(of: id)
        return index >= 0 ? index : nil
    }

    // MARK: - Judging

    /// The verdict on one check-in, without the duplicate test (which needs the check-ins before it:
    /// use `validate(_:)` or a `CheckInLedger`).
    /// - Complexity: O(1) expected for a check-in naming its event or place (one geodesic at most);
    ///   a containment query for a point-only one.
    public func judge(_ checkIn: CheckIn) -> CheckInResult {
        var scratch: [Int] = []
        var event = checkIn.eventId ?? ""
        var place = checkIn.placeId ?? ""
        var user = checkIn.userId
        return event.withUTF8 { event in
            place.withUTF8 { place in
                user.withUTF8 { user in
                    judge(latitude: checkIn.latitude, longitude: checkIn.longitude,
                          seconds: checkIn.time?.secondsSince1970 ?? .nan, accuracyMeters: checkIn.accuracyMeters ?? 0,
                          eventKey: UnsafeRawBufferPointer(event), placeKey: UnsafeRawBufferPointer(place),
                          user: UnsafeRawBufferPointer(user), scratch: &scratch)
                }
            }
        }
    }

    /// Judges every check-in in order, duplicates included: the first valid check-in of a user for an event
    /// wins, later ones are `duplicate`.
    /// - Complexity: O(n) judgements; memory for the results and the (user, event) pairs of valid check-ins.
    public func validate(_ checkIns: some Sequence<CheckIn>) -> [CheckInResult] {
        var ledger = CheckInLedger(validator: self, countsVisits: false)
        return validate(checkIns, ledger: &ledger)
    }

    /// Judges every check-in in order against `ledger` (which remembers valid (user, event) pairs and, if
    /// asked, counts visits), so one ledger can span several calls.
    /// - Complexity: O(n) judgements.
    public func validate(_ checkIns: some Sequence<CheckIn>, ledger: inout CheckInLedger) -> [CheckInResult] {
        var results: [CheckInResult] = []
        results.reserveCapacity(checkIns.underestimatedCount)
        for checkIn in checkIns {
            var result = judge(checkIn)
            ledger.settle(&result, userId: checkIn.userId)
            results.append(result)
        }
        return results
    }

    /// The judgement on raw fields: ids as bytes (empty = not given), `seconds` NaN for an unreadable time,
    /// `accuracyMeters` 0 when unknown. `scratch` is working memory for point-only matches.
    /// - Complexity: as `judge(_:)`.
    @inline(__always)
    package func judge(
        latitude: Double, longitude: Double, seconds: Double, accuracyMeters: Double,
        eventKey: UnsafeRawBufferPointer, placeKey: UnsafeRawBufferPointer, user: UnsafeRawBufferPointer,
        scratch: inout [Int]
    ) -> CheckInResult {
        guard latitude >= -90, latitude <= 90, longitude >= -180, longitude <= 180,
              accuracyPolicy == .ignore || (accuracyMeters >= 0 && accuracyMeters.isFinite) else {
            return CheckInResult(reason: .invalidCoordinate)
        }
        guard seconds.isFinite else { return CheckInResult(reason: .invalidTime) }
        return judge(latitude: latitude, longitude: longitude, seconds: seconds, accuracyMeters: accuracyMeters,
                     target: resolve(eventKey: eventKey, placeKey: placeKey), user: user, scratch: &scratch)
    }

    /// What a check-in's ids resolve to: index, -1 when unknown, -2 when not given. With an event, `place` is
    /// the event's place and `claimedPlace` the place id the check-in also names (-2 when it names none).
    package struct Target {
        package var event: Int
        package var place: Int
        package var claimedPlace: Int
        package init(event: Int, place: Int, claimedPlace: Int = -2) {
            self.event = event
            self.place = place
            self.claimedPlace = claimedPlace
        }
    }

    /// Resolves a check-in's event (and through it, its place) or place id. Separate from judging so that a
    /// batch can resolve many rows first: the lookups of different rows are independent memory accesses the
    /// processor overlaps.
    /// - Complexity: O(n) in the ids' length, expected.
    @inline(__always)
    package func resolve(eventKey: UnsafeRawBufferPointer, placeKey: UnsafeRawBufferPointer) -> Target {
        if !eventKey.isEmpty {
            let event = eventKeys.index(of: eventKey)
            return Target(event: event, place: event >= 0 ? Int(eventRecords[event].place) : -2,
                          claimedPlace: placeKey.isEmpty ? -2 : placeKeys.index(of: placeKey))
        }
        if !placeKey.isEmpty { return Target(event: -2, place: placeKeys.index(of: placeKey)) }
        return Target(event: -2, place: -2)
    }

    /// `resolve(eventKey:placeKey:)` for `count` check-ins at once, in stages so that the memory reads of
    /// different rows overlap: first every key is parsed (numbered ids give their dense slot without reading
    /// any table, other ids their hash), then the dense slots and hash tables are read back to back, then the
    /// events' records.
    /// - Complexity: O(n) in the ids' lengths, expected.
    package func resolve(eventKeys events: UnsafePointer<UnsafeRawBufferPointer>,
                         placeKeys places: UnsafePointer<UnsafeRawBufferPointer>,
                         count: Int, into targets: UnsafeMutablePointer<Target>) {
        let pending = -5
        // Per row: the dense slot of its event or place id, or -1 and the id's hash.
        withUnsafeTemporaryAllocation(of: (slot: Int, hash: UInt64).self, capacity: max(1, count)) { lookups in
            for i in 0 ..< count {
                let event = events[i], place = places[i]
                lookups[i] = (-1, 0)
                if !event.isEmpty {
                    lookups[i].slot = eventKeys.denseSlot(event)
                    if lookups[i].slot < 0 { lookups[i].hash = byteHash(event) }
                    targets[i] = Target(event: pending, place: -2, claimedPlace: place.isEmpty ? -2 : placeKeys.index(of: place))
                } else if !place.isEmpty {
                    lookups[i].slot = placeKeys.denseSlot(place)
                    if lookups[i].slot < 0 { lookups[i].hash = byteHash(place) }
                    targets[i] = Target(event: -2, place: pending)
                } else {
                    targets[i] = Target(event: -2, place: -2)
                }
            }
            for i in 0 ..< count {
                let (slot, hash) = lookups[i]
                if targets[i].event == pending {
                    targets[i].event = slot >= 0 ? eventKeys.index(of: events[i], denseSlot: slot) : eventKeys.index(of: events[i], hash: hash)
                } else if targets[i].place == pending {
                    targets[i].place = slot >= 0 ? placeKeys.index(of: places[i], denseSlot: slot) : placeKeys.index(of: places[i], hash: hash)
                }
            }
            eventRecords.withUnsafeBufferPointer { records in
                for i in 0 ..< count where targets[i].event >= 0 {
                    targets[i].place = Int(records[targets[i].event].place)
                }
            }
        }
    }

    /// Reads a place's record (to bring it into the cache ahead of judging); returns its latitude.
    @inline(__always)
    package func touch(place: Int) -> Double { place >= 0 ? placeData[Self.placeStride * place] : 0 }

    /// `judge` for a check-in whose ids were resolved by `resolve(eventKey:placeKey:)`.
    /// - Complexity: as `judge(_:)`.
    @inline(__always)
    package func judge(latitude: Double, longitude: Double, seconds: Double, accuracyMeters: Double,
                       target: Target, user: UnsafeRawBufferPointer, scratch: inout [Int]) -> CheckInResult {
        guard latitude >= -90, latitude <= 90, longitude >= -180, longitude <= 180,
              accuracyPolicy == .ignore || (accuracyMeters >= 0 && accuracyMeters.isFinite) else {
            return CheckInResult(reason: .invalidCoordinate)
        }
        guard seconds.isFinite else { return CheckInResult(reason: .invalidTime) }
        let place: Int
        var event = -1
        if target.event != -2 {
            event = target.event
            guard event >= 0 else { return CheckInResult(reason: .unknownEvent) }
            place = target.place
            guard place >= 0 else { return CheckInResult(reason: .unknownPlace, event: Int32(event)) }
            if target.claimedPlace != -2, target.claimedPlace != place {
                return CheckInResult(reason: .placeMismatch, place: Int32(place), event: Int32(event))
            }
        } else if target.place != -2 {
            place = target.place
            guard place >= 0 else { return CheckInResult(reason: .unknownPlace) }
        } else {
            return match(latitude: latitude, longitude: longitude, seconds: seconds,
                         accuracyMeters: accuracyPolicy == .lenient ? accuracyMeters : 0, user: user, scratch: &scratch)
        }
        // One test of an empty array for validators without areas: the circle path is otherwise unchanged.
        if !placeShapes.isEmpty, let shape = placeShapes[place] {
            let distance = outsideAreaDistance(shape, place: place, latitude: latitude, longitude: longitude,
                                               accuracyMeters: accuracyPolicy == .lenient ? accuracyMeters : 0)
            if !distance.isNaN {
                return CheckInResult(reason: .outsideArea, place: Int32(place), event: Int32(event), distance: distance)
            }
        } else {
            let distance = outsideDistance(place: place, latitude: latitude, longitude: longitude, accuracyMeters: accuracyMeters)
            if !distance.isNaN {
                return CheckInResult(reason: .outsideRadius, place: Int32(place), event: Int32(event), distance: distance)
            }
        }
        if event >= 0 {
            if seconds < eventRecords[event].start {
                return CheckInResult(reason: .beforeStart, place: Int32(place), event: Int32(event))
            }
            if seconds >= eventRecords[event].end {
                return CheckInResult(reason: .afterEnd, place: Int32(place), event: Int32(event))
            }
            if requiresJoins, !hasJoined(event: event, user: user) {
                return CheckInResult(reason: .notJoined, place: Int32(place), event: Int32(event))
            }
        }
        return CheckInResult(reason: nil, place: Int32(place), event: Int32(event))
    }

    /// NaN when the point is inside the place's circle (with the accuracy policy), otherwise the exact
    /// model distance from the centre (with `distancesForPrinting`, possibly another with the same millimetre
    /// ceiling).
    @inline(__always)
    func outsideDistance(place: Int, latitude: Double, longitude: Double, accuracyMeters: Double) -> Double {
        placeData.withUnsafeBufferPointer { data in
            let base = Self.placeStride * place
            let centerLatitude = data[base], centerLongitude = data[base + 1], radius = data[base + 2]
            let sinHalfDLat = sin((latitude - centerLatitude) * (Spherical.radiansPerDegree / 2))
            let sinHalfDLon = sin((longitude - centerLongitude) * (Spherical.radiansPerDegree / 2))
            let cosLatitude = cos(latitude * Spherical.radiansPerDegree)
            let h = sinHalfDLat * sinHalfDLat + data[base + 3] * cosLatitude * sinHalfDLon * sinHalfDLon
            if accuracyPolicy == .ignore || accuracyMeters == 0 {
                if h <= data[base + 4] { return .nan }
                // The chord bound: inside when its upper end is within the radius; outside when its lower end is
                // beyond, and then, for printing, its upper end stands for the distance if both ends print alike
                // (the millimetre ceiling is monotone, so the exact distance between them prints the same too).
                if model == .wgs84, h <= GeodesicChord.maximumHaversine {
                    let chord = GeodesicChord.chordMeters(data[base + 6], data[base + 7], centerLongitude,
                                                          latitude, longitude, cosLatitude: cosLatitude)
                    let upper = GeodesicChord.upperBoundMeters(chord: chord)
                    if upper <= radius { return .nan }
                    if distancesForPrinting, GeodesicChord.lowerBoundMeters(chord: chord) > radius,
                       let printed = CheckInMillimetres.ceiling(upper),
                       CheckInMillimetres.ceiling(GeodesicChord.lowerBoundMeters(chord: chord)) == printed {
                        return upper
                    }
                }
                if h > data[base + 5] { return measure(model, centerLatitude, centerLongitude, latitude, longitude) }
                let distance = measure(model, centerLatitude, centerLongitude, latitude, longitude)
                return distance <= radius ? .nan : distance
            }
            // Lenient: valid when distance − accuracy ≤ radius. The bounds decide with a millimetre to spare
            // (far more than any rounding); the rest is measured and compared in exactly that form.
            let reach = radius + accuracyMeters
            if bounds.upperBoundMeters(haversine: h) < reach - 1e-3 { return .nan }
            let distance = measure(model, centerLatitude, centerLongitude, latitude, longitude)
            return distance - accuracyMeters <= radius ? .nan : distance
        }
    }

    /// Whether `user` joined `event`.
    @inline(__always)
    func hasJoined(event: Int, user: UnsafeRawBufferPointer) -> Bool {
        let index = joinUsers.index(of: user)
        return index >= 0 && joinPairs.contains(UInt64(event) << 32 | UInt64(index))
    }
}

/// An event as the validator keeps it.
struct EventRecord: Sendable {
    /// Seconds since 1970: the window `[start, end)`.
    let start: Double
    let end: Double
    /// The place's index, or -1.
    let place: Int32
}

/// A value handed between the threads that build a validator or its output texts (each writes its own box once,
/// and the builder reads it after all have finished).
package final class CheckInBuildBox<Value>: @unchecked Sendable {
    package var value: Value
    /// - Complexity: O(1).
    package init(_ value: Value) { self.value = value }
}
