/// One element of the uploaded array, as a client sends it:
/// `{"id": 10000000, "name": "item 10000000", "quantity": 7}`.
///
/// A plain `Codable` type: the route decodes each element with the library's Codable decoder,
/// with nothing written for Elevate. Keys it does not name (a `description`, say) are skipped.
struct Item: Codable, Sendable {
    var id: Int
    var name: String
    var quantity: Int
}
