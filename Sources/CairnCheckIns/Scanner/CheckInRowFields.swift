import CairnCore

/// The fields of one check-in row, as bytes (empty when absent).
struct CheckInRowFields {
    var id = CheckInField.empty
    var user = CheckInField.empty
    var event = CheckInField.empty
    var place = CheckInField.empty
    var latitude = CheckInField.empty
    var longitude = CheckInField.empty
    var time = CheckInField.empty
    var accuracy = CheckInField.empty
}
