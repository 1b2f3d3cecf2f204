import ElevateJSON
import Foundation

/// nativejson-benchmark's `citm_catalog.json` (a concert-hall catalogue), every field; the maps keyed
/// by id are `[String: …]`, as JSON writes them.
///
/// ```swift
/// let catalog = try ElevateJSONDecoder().decode(CitmCatalog.self, from: data)
/// ```
///
/// ``Contender/jsonDecoderCitm`` and ``Contender/tapeCodableCitm`` both decode into it, so
/// `JSONDecoder` and `ElevateJSONDecoder` are compared on the same work.
public struct CitmCatalog: Codable, Hashable, Sendable {
    /// Area names keyed by ``CitmArea/areaId`` (as a string), like `"205705993": "Arrière-scène central"`.
    public var areaNames: [String: String]
    /// Audience sub-category names keyed by ``CitmPrice/audienceSubCategoryId``; one in the document, `Abonné`.
    public var audienceSubCategoryNames: [String: String]
    /// Block names keyed by the ids of ``CitmArea/blockIds``; empty in the document.
    public var blockNames: [String: String]
    /// The events keyed by ``CitmEvent/id`` (as a string).
    public var events: [String: CitmEvent]
    /// The performances: dated showings of the events, each with its prices and seat categories.
    public var performances: [CitmPerformance]
    /// Seat category names keyed by ``CitmSeatCategory/seatCategoryId``, like `1ère catégorie`.
    public var seatCategoryNames: [String: String]
    /// Sub-topic names keyed by the ids of ``CitmEvent/subTopicIds``, like `Jazz`.
    public var subTopicNames: [String: String]
    /// Subject names keyed by id; empty in the document.
    public var subjectNames: [String: String]
    /// Topic names keyed by the ids of ``CitmEvent/topicIds``, like `Genre`.
    public var topicNames: [String: String]
    /// For each topic id of ``topicNames``, the ids of its sub-topics.
    public var topicSubTopics: [String: [Int]]
    /// Venue names keyed by ``CitmPerformance/venueCode``; one in the document, `PLEYEL_PLEYEL` (`Salle Pleyel`).
    public var venueNames: [String: String]
}

/// An event of the catalogue.
public struct CitmEvent: Codable, Hashable, Sendable {
    /// A description; null for every event in the document.
    public var description: String?
    /// The event's id, also its key in ``CitmCatalog/events``.
    public var id: Int
    /// An image path like `/images/UE0AAAAACEKo6QAAAAZDSVRN`, or null (for about half the events).
    public var logo: String?
    /// The event's title, like `Berliner Philharmoniker`.
    public var name: String
    /// Keys of ``CitmCatalog/subTopicNames``.
    public var subTopicIds: [Int]
    /// A subject code; null for every event in the document.
    public var subjectCode: String?
    /// A subtitle; null for every event in the document.
    public var subtitle: String?
    /// Keys of ``CitmCatalog/topicNames``.
    public var topicIds: [Int]
}

/// A performance of an event.
public struct CitmPerformance: Codable, Hashable, Sendable {
    /// The ``CitmEvent/id`` of the event performed.
    public var eventId: Int
    /// The performance's id.
    public var id: Int
    /// An image path, or null (for about half the performances).
    public var logo: String?
    /// A name; null for every performance in the document (the event's name applies).
    public var name: String?
    /// One price per seat category and audience, up to five.
    public var prices: [CitmPrice]
    /// The seat categories on sale, with the areas of the hall each covers.
    public var seatCategories: [CitmSeatCategory]
    /// A seat-map image; null for every performance in the document.
    public var seatMapImage: String?
    /// Start time in milliseconds since 1970 UTC, like `1372701600000` (1 July 2013, 18:00).
    public var start: Int
    /// A key of ``CitmCatalog/venueNames``: `PLEYEL_PLEYEL` throughout.
    public var venueCode: String
}

/// A price of a performance.
public struct CitmPrice: Codable, Hashable, Sendable {
    /// The price as an integer, like `90250`; the document states no unit (it reads as cents).
    public var amount: Int
    /// A key of ``CitmCatalog/audienceSubCategoryNames``.
    public var audienceSubCategoryId: Int
    /// The ``CitmSeatCategory/seatCategoryId`` this price is for; a key of ``CitmCatalog/seatCategoryNames``.
    public var seatCategoryId: Int
}

/// A seat category of a performance.
public struct CitmSeatCategory: Codable, Hashable, Sendable {
    /// The areas of the hall whose seats are in this category.
    public var areas: [CitmArea]
    /// A key of ``CitmCatalog/seatCategoryNames``.
    public var seatCategoryId: Int
}

/// An area of a seat category.
public struct CitmArea: Codable, Hashable, Sendable {
    /// A key of ``CitmCatalog/areaNames``.
    public var areaId: Int
    /// Keys of ``CitmCatalog/blockNames``; empty throughout the document.
    public var blockIds: [Int]
}


// MARK: - Written by @TapeDecodable (BenchmarkModelExpansionTests checks it; see there to rewrite it)

extension CitmCatalog: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .areaNames, .audienceSubCategoryNames, .blockNames, .events, .performances, .seatCategoryNames, .subTopicNames, .subjectNames, .topicNames, .topicSubTopics, .venueNames:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.areaNames = try container.decodeProperty(\Self.areaNames, forKey: .areaNames)
        self.audienceSubCategoryNames = try container.decodeProperty(\Self.audienceSubCategoryNames, forKey: .audienceSubCategoryNames)
        self.blockNames = try container.decodeProperty(\Self.blockNames, forKey: .blockNames)
        self.events = try container.decodeProperty(\Self.events, forKey: .events)
        self.performances = try container.decodeProperty(\Self.performances, forKey: .performances)
        self.seatCategoryNames = try container.decodeProperty(\Self.seatCategoryNames, forKey: .seatCategoryNames)
        self.subTopicNames = try container.decodeProperty(\Self.subTopicNames, forKey: .subTopicNames)
        self.subjectNames = try container.decodeProperty(\Self.subjectNames, forKey: .subjectNames)
        self.topicNames = try container.decodeProperty(\Self.topicNames, forKey: .topicNames)
        self.topicSubTopics = try container.decodeProperty(\Self.topicSubTopics, forKey: .topicSubTopics)
        self.venueNames = try container.decodeProperty(\Self.venueNames, forKey: .venueNames)
    }
}

extension CitmEvent: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .description, .id, .logo, .name, .subTopicIds, .subjectCode, .subtitle, .topicIds:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.description = try container.decodeProperty(\Self.description, forKey: .description)
        self.id = try container.decodeProperty(\Self.id, forKey: .id)
        self.logo = try container.decodeProperty(\Self.logo, forKey: .logo)
        self.name = try container.decodeProperty(\Self.name, forKey: .name)
        self.subTopicIds = try container.decodeProperty(\Self.subTopicIds, forKey: .subTopicIds)
        self.subjectCode = try container.decodeProperty(\Self.subjectCode, forKey: .subjectCode)
        self.subtitle = try container.decodeProperty(\Self.subtitle, forKey: .subtitle)
        self.topicIds = try container.decodeProperty(\Self.topicIds, forKey: .topicIds)
    }
}

extension CitmPerformance: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .eventId, .id, .logo, .name, .prices, .seatCategories, .seatMapImage, .start, .venueCode:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.eventId = try container.decodeProperty(\Self.eventId, forKey: .eventId)
        self.id = try container.decodeProperty(\Self.id, forKey: .id)
        self.logo = try container.decodeProperty(\Self.logo, forKey: .logo)
        self.name = try container.decodeProperty(\Self.name, forKey: .name)
        self.prices = try container.decodeProperty(\Self.prices, forKey: .prices)
        self.seatCategories = try container.decodeProperty(\Self.seatCategories, forKey: .seatCategories)
        self.seatMapImage = try container.decodeProperty(\Self.seatMapImage, forKey: .seatMapImage)
        self.start = try container.decodeProperty(\Self.start, forKey: .start)
        self.venueCode = try container.decodeProperty(\Self.venueCode, forKey: .venueCode)
    }
}

extension CitmPrice: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .amount, .audienceSubCategoryId, .seatCategoryId:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.amount = try container.decodeProperty(\Self.amount, forKey: .amount)
        self.audienceSubCategoryId = try container.decodeProperty(\Self.audienceSubCategoryId, forKey: .audienceSubCategoryId)
        self.seatCategoryId = try container.decodeProperty(\Self.seatCategoryId, forKey: .seatCategoryId)
    }
}

extension CitmSeatCategory: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .areas, .seatCategoryId:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.areas = try container.decodeProperty(\Self.areas, forKey: .areas)
        self.seatCategoryId = try container.decodeProperty(\Self.seatCategoryId, forKey: .seatCategoryId)
    }
}

extension CitmArea: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .areaId, .blockIds:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.areaId = try container.decodeProperty(\Self.areaId, forKey: .areaId)
        self.blockIds = try container.decodeProperty(\Self.blockIds, forKey: .blockIds)
    }
}
