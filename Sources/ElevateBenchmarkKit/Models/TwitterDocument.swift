import Foundation

/// nativejson-benchmark's `twitter.json` (a Twitter search response), every field, for decoding with
/// `keyDecodingStrategy = .convertFromSnakeCase` (the properties are the camel-case names).
///
/// ```swift
/// let decoder = ElevateJSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let twitter = try decoder.decode(TwitterDocument.self, from: data)
/// ```
public struct TwitterDocument: Codable, Hashable, Sendable {
    /// The tweets.
    public var statuses: [TwitterStatus]
    /// The search's metadata.
    public var searchMetadata: TwitterSearchMetadata
}

/// `search_metadata`.
public struct TwitterSearchMetadata: Codable, Hashable, Sendable {
    public var completedIn: Double
    public var maxId: Int
    public var maxIdStr: String
    public var nextResults: String
    public var query: String
    public var refreshUrl: String
    public var count: Int
    public var sinceId: Int
    public var sinceIdStr: String
}

/// A value held indirectly, so that a tweet can hold the tweet it retweets.
public indirect enum TwitterIndirect<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    case value(Value)

    /// The value.
    public var value: Value {
        switch self { case .value(let value): value }
    }

    /// Decodes the value itself.
    public init(from decoder: any Decoder) throws {
        self = .value(try decoder.singleValueContainer().decode(Value.self))
    }

    /// Encodes the value itself.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// One tweet.
public struct TwitterStatus: Codable, Hashable, Sendable {
    public var metadata: TwitterStatusMetadata
    public var createdAt: String
    public var id: Int
    public var idStr: String
    public var text: String
    public var source: String
    public var truncated: Bool
    public var inReplyToStatusId: Int?
    public var inReplyToStatusIdStr: String?
    public var inReplyToUserId: Int?
    public var inReplyToUserIdStr: String?
    public var inReplyToScreenName: String?
    public var user: TwitterUser
    /// Always null in the document.
    public var geo: String?
    /// Always null in the document.
    public var coordinates: String?
    /// Always null in the document.
    public var place: String?
    /// Always null in the document.
    public var contributors: [Int]?
    public var retweetCount: Int
    public var favoriteCount: Int
    public var entities: TwitterEntities
    public var favorited: Bool
    public var retweeted: Bool
    public var lang: String
    public var retweetedStatus: TwitterIndirect<TwitterStatus>?
    public var possiblySensitive: Bool?
}

/// A tweet's `metadata`.
public struct TwitterStatusMetadata: Codable, Hashable, Sendable {
    public var resultType: String
    public var isoLanguageCode: String
}

/// A tweet's author.
public struct TwitterUser: Codable, Hashable, Sendable {
    public var id: Int
    public var idStr: String
    public var name: String
    public var screenName: String
    public var location: String
    public var description: String
    public var url: String?
    public var entities: TwitterUserEntities
    public var protected: Bool
    public var followersCount: Int
    public var friendsCount: Int
    public var listedCount: Int
    public var createdAt: String
    public var favouritesCount: Int
    public var utcOffset: Int?
    public var timeZone: String?
    public var geoEnabled: Bool
    public var verified: Bool
    public var statusesCount: Int
    public var lang: String
    public var contributorsEnabled: Bool
    public var isTranslator: Bool
    public var isTranslationEnabled: Bool
    public var profileBackgroundColor: String
    public var profileBackgroundImageUrl: String
    public var profileBackgroundImageUrlHttps: String
    public var profileBackgroundTile: Bool
    public var profileImageUrl: String
    public var profileImageUrlHttps: String
    public var profileBannerUrl: String?
    public var profileLinkColor: String
    public var profileSidebarBorderColor: String
    public var profileSidebarFillColor: String
    public var profileTextColor: String
    public var profileUseBackgroundImage: Bool
    public var defaultProfile: Bool
    public var defaultProfileImage: Bool
    public var following: Bool
    public var followRequestSent: Bool
    public var notifications: Bool
}

/// A user's `entities`.
public struct TwitterUserEntities: Codable, Hashable, Sendable {
    public var description: TwitterURLList
    public var url: TwitterURLList?
}

/// `{"urls": [...]}`.
public struct TwitterURLList: Codable, Hashable, Sendable {
    public var urls: [TwitterURL]
}

/// A tweet's `entities`.
public struct TwitterEntities: Codable, Hashable, Sendable {
    public var hashtags: [TwitterHashtag]
    public var symbols: [String]
    public var urls: [TwitterURL]
    public var userMentions: [TwitterUserMention]
    public var media: [TwitterMedia]?
}

public struct TwitterHashtag: Codable, Hashable, Sendable {
    public var text: String
    public var indices: [Int]
}

public struct TwitterURL: Codable, Hashable, Sendable {
    public var url: String
    public var expandedUrl: String
    public var displayUrl: String
    public var indices: [Int]
}

public struct TwitterUserMention: Codable, Hashable, Sendable {
    public var screenName: String
    public var name: String
    public var id: Int
    public var idStr: String
    public var indices: [Int]
}

public struct TwitterMedia: Codable, Hashable, Sendable {
    public var id: Int
    public var idStr: String
    public var indices: [Int]
    public var mediaUrl: String
    public var mediaUrlHttps: String
    public var url: String
    public var displayUrl: String
    public var expandedUrl: String
    public var type: String
    public var sizes: [String: TwitterMediaSize]
    public var sourceStatusId: Int?
    public var sourceStatusIdStr: String?
}

public struct TwitterMediaSize: Codable, Hashable, Sendable {
    public var w: Int
    public var h: Int
    public var resize: String
}
