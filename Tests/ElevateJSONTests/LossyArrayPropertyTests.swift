import ElevateJSON
import Foundation
import Testing

/// `@LossyArray` inside a model, with this library's decoder and Foundation's.
@Suite struct LossyArrayPropertyTests {
    struct Post: Codable, Equatable {
        var id: Int
        var title: String
    }

    struct Feed: Codable, Equatable {
        var name: String
        @LossyArray var posts: [Post]
    }

    static let data = Data(
        #"{"name": "n", "posts": [{"id": 1, "title": "a"}, {"id": "two"}, 3, {"id": 4, "title": "d"}, null]}"#.utf8)

    @Test func keepsTheElementsThatDecode() throws {
        let ours = try ElevateJSONDecoder().decode(Feed.self, from: Self.data)
        #expect(ours.posts == [Post(id: 1, title: "a"), Post(id: 4, title: "d")])
        #expect(try JSONDecoder().decode(Feed.self, from: Self.data) == ours)
        // It encodes as the plain array, and reads back the same.
        let written = try ElevateJSONEncoder().encode(ours)
        #expect(try ElevateJSONDecoder().decode(Feed.self, from: written) == ours)
        #expect(String(decoding: written, as: UTF8.self).contains(#""posts":[{"#))
    }

    @Test func aValueThatIsNoArrayIsStillAnError() {
        for text in [#"{"name": "n", "posts": 3}"#, #"{"name": "n"}"#, #"{"name": "n", "posts": null}"#] {
            #expect(throws: DecodingError.self) { try ElevateJSONDecoder().decode(Feed.self, from: Data(text.utf8)) }
        }
    }
}
