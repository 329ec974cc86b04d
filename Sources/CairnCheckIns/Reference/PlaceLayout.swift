/// How a places CSV file's rows are read: as circles (id, latitude, longitude, radius) or as areas (id and a
/// geometry column, `AreaPlaceColumns`).
enum PlaceLayout: Sendable {
    case circles(PlaceColumns)
    case areas(AreaPlaceColumns)
}
