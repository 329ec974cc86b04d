/// The geometry types of MVT 2.1 (`Tile.GeomType`, section 4.3.4); the raw value is the wire value.
public enum VectorTileGeometryType: UInt32, Sendable, CaseIterable {
    /// Experimental geometry that decoders may ignore; Cairn never writes it.
    case unknown = 0
    /// A point or multipoint: one MoveTo with a count of at least one.
    case point = 1
    /// A line or multiline: repetitions of MoveTo(1), LineTo(n >= 1).
    case lineString = 2
    /// A polygon or multipolygon: rings of MoveTo(1), LineTo(n >= 2), ClosePath, exterior rings clockwise.
    case polygon = 3
}
