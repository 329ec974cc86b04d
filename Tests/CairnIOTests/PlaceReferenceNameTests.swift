import Testing
@testable import CairnIO

/// `FeatureRecordBuilder.isPlaceReference` rules most names out by length and first byte before lower-casing; the
/// answers stay those of lower-casing every name (`placeid` or `place_id`, any case).
@Suite struct PlaceReferenceNameTests {
    @Test(arguments: [
        "placeId", "placeid", "PLACEID", "PlaceID", "place_id", "Place_Id", "PLACE_ID", "pLaCe_iD",
        "placeId ", " placeId", "placeIds", "place-id", "placId", "lpaceId", "PlaceIİ", "placeİd", "placeİ",
        "place_i", "placesid", "Pl", "", "p", "population", "timezone", "country", "name", "ṗlaceid", "ｐlaceid",
    ])
    func sameAnswerAsLowerCasingEveryName(_ name: String) {
        let lowered = name.lowercased()
        #expect(FeatureRecordBuilder.isPlaceReference(name) == (lowered == "placeid" || lowered == "place_id"), "\(name)")
    }
}
