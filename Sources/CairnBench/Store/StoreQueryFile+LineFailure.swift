extension StoreQueryFile {
    /// Why a line was refused: the field (nil for the whole line) and the message.
    struct LineFailure: Error {
        let field: String?
        let message: String
    }
}
