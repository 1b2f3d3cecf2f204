import Elevate

/// `{"id": …, "name": …}`: the element the streaming suites decode.
struct NamedItem: Elevate.Decodable, Equatable {
    let id: Int
    let name: String

    init(id: Int, name: String) {
        self.id = id
        self.name = name
    }

    init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: "id", type: .int)
            schema.addProperty(keyPath: "name", type: .string)
        }
        id = entity <-! "id"
        name = entity <-! "name"
    }

    /// A document whose `data.items` are three of these, after a member to skip.
    static let document =
        #"{"meta": {"skip": [1, 2, {"deep": true}]}, "data": {"items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}]}}"#
}
