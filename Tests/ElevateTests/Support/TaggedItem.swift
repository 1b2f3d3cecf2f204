import Elevate

/// `{"id": …, "tags": […]}`: the element the parallel suites decode on one thread and on several.
struct TaggedItem: Elevate.Decodable, Equatable, Sendable {
    let id: Int
    let tags: [String]
    init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: "id", type: .int)
            schema.addProperty(keyPath: "tags", type: .array, decodableType: String.self)
        }
        id = entity <-! "id"
        tags = entity <--! "tags"
    }
}
