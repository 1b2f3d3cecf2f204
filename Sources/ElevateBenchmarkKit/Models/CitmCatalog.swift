/// nativejson-benchmark's `citm_catalog.json` (a concert-hall catalogue), every field; the maps keyed
/// by id are `[String: …]`, as JSON writes them.
///
/// ```swift
/// let catalog = try ElevateJSONDecoder().decode(CitmCatalog.self, from: data)
/// ```
public struct CitmCatalog: Codable, Hashable, Sendable {
    public var areaNames: [String: String]
    public var audienceSubCategoryNames: [String: String]
    public var blockNames: [String: String]
    public var events: [String: CitmEvent]
    public var performances: [CitmPerformance]
    public var seatCategoryNames: [String: String]
    public var subTopicNames: [String: String]
    public var subjectNames: [String: String]
    public var topicNames: [String: String]
    public var topicSubTopics: [String: [Int]]
    public var venueNames: [String: String]
}

/// An event of the catalogue.
public struct CitmEvent: Codable, Hashable, Sendable {
    public var description: String?
    public var id: Int
    public var logo: String?
    public var name: String
    public var subTopicIds: [Int]
    public var subjectCode: String?
    public var subtitle: String?
    public var topicIds: [Int]
}

/// A performance of an event.
public struct CitmPerformance: Codable, Hashable, Sendable {
    public var eventId: Int
    public var id: Int
    public var logo: String?
    public var name: String?
    public var prices: [CitmPrice]
    public var seatCategories: [CitmSeatCategory]
    public var seatMapImage: String?
    public var start: Int
    public var venueCode: String
}

/// A price of a performance.
public struct CitmPrice: Codable, Hashable, Sendable {
    public var amount: Int
    public var audienceSubCategoryId: Int
    public var seatCategoryId: Int
}

/// A seat category of a performance.
public struct CitmSeatCategory: Codable, Hashable, Sendable {
    public var areas: [CitmArea]
    public var seatCategoryId: Int
}

/// An area of a seat category.
public struct CitmArea: Codable, Hashable, Sendable {
    public var areaId: Int
    public var blockIds: [Int]
}
