import ElevateJSON
import Foundation

/// nativejson-benchmark's `twitter.json` (a Twitter search response), every field, for decoding with
/// `keyDecodingStrategy = .convertFromSnakeCase` (the properties are the camel-case names).
///
/// ```swift
/// let decoder = ElevateJSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let twitter = try decoder.decode(TwitterDocument.self, from: data)
/// ```
///
/// ``Contender/jsonDecoderTwitter`` and ``Contender/tapeCodableTwitter`` both decode into it, so
/// `JSONDecoder` and `ElevateJSONDecoder` are compared on the same work.
public struct TwitterDocument: Codable, Hashable, Sendable {
    /// The tweets.
    public var statuses: [TwitterStatus]
    /// The search's metadata.
    public var searchMetadata: TwitterSearchMetadata
}

/// `search_metadata`.
public struct TwitterSearchMetadata: Codable, Hashable, Sendable {
    /// `completed_in`: the seconds the search took, like `0.087`.
    public var completedIn: Double
    /// `max_id`: the newest tweet's id; the document's number is rounded (it went through a double), ``maxIdStr`` is exact.
    public var maxId: Int
    /// `max_id_str`: the newest tweet's exact id, as a string.
    public var maxIdStr: String
    /// `next_results`: the query string of the next, older page, like `?max_id=…&q=%E4%B8%80&count=100&include_entities=1`.
    public var nextResults: String
    /// The search terms, percent-encoded: `%E4%B8%80` (一).
    public var query: String
    /// `refresh_url`: the query string that fetches tweets newer than this page.
    public var refreshUrl: String
    /// The page size asked for: `100`.
    public var count: Int
    /// `since_id`: the oldest id asked for; `0`, no bound.
    public var sinceId: Int
    /// `since_id_str`: ``sinceId`` as a string.
    public var sinceIdStr: String
}

/// A value held indirectly, so that a tweet can hold the tweet it retweets.
public indirect enum TwitterIndirect<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    /// The wrapped value; the only case, `indirect` so that a ``TwitterStatus`` can hold another.
    case value(Value)

    /// The value.
    public var value: Value {
        switch self { case .value(let value): value }
    }

    /// Decodes the value itself.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        self = .value(try decoder.singleValueContainer().decode(Value.self))
    }

    /// Encodes the value itself.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// One tweet.
public struct TwitterStatus: Codable, Hashable, Sendable {
    /// The search's `metadata` for this tweet: its result type and language.
    public var metadata: TwitterStatusMetadata
    /// `created_at`, undecoded, like `Sun Aug 31 00:29:15 +0000 2014`.
    public var createdAt: String
    /// The tweet's id; the document's number is rounded (it went through a double), ``idStr`` is exact.
    public var id: Int
    /// `id_str`: the tweet's exact id, as a string.
    public var idStr: String
    /// The tweet's text; the `indices` of ``entities`` count Unicode scalars into it.
    public var text: String
    /// The posting client as an HTML link, like `<a href="…" rel="nofollow">Twitter for iPhone</a>`.
    public var source: String
    /// Twitter's truncation flag; false throughout, even on retweets whose text ends in `…`.
    public var truncated: Bool
    /// `in_reply_to_status_id`: the tweet this one replies to, or null; rounded like ``id``.
    public var inReplyToStatusId: Int?
    /// `in_reply_to_status_id_str`: the exact ``inReplyToStatusId`` as a string, or null.
    public var inReplyToStatusIdStr: String?
    /// `in_reply_to_user_id`: the author this tweet replies to, or null.
    public var inReplyToUserId: Int?
    /// `in_reply_to_user_id_str`: ``inReplyToUserId`` as a string, or null.
    public var inReplyToUserIdStr: String?
    /// `in_reply_to_screen_name`: the handle of the author replied to, without `@`, or null.
    public var inReplyToScreenName: String?
    /// The tweet's author, embedded in full in every tweet.
    public var user: TwitterUser
    /// Always null in the document.
    public var geo: String?
    /// Always null in the document.
    public var coordinates: String?
    /// Always null in the document.
    public var place: String?
    /// Always null in the document.
    public var contributors: [Int]?
    /// `retweet_count`: how many times the tweet was retweeted.
    public var retweetCount: Int
    /// `favorite_count`: how many times the tweet was favorited.
    public var favoriteCount: Int
    /// The hashtags, links, mentions and media found in ``text``.
    public var entities: TwitterEntities
    /// Whether the searching account favorited the tweet; false throughout the document.
    public var favorited: Bool
    /// Whether the searching account retweeted the tweet; false throughout the document.
    public var retweeted: Bool
    /// The tweet's detected language, like `ja`.
    public var lang: String
    /// `retweeted_status`: the original tweet when this one is a retweet (73 of the 100); absent otherwise.
    public var retweetedStatus: TwitterIndirect<TwitterStatus>?
    /// `possibly_sensitive`: present only on tweets with links or media, and false there.
    public var possiblySensitive: Bool?
}

/// A tweet's `metadata`.
public struct TwitterStatusMetadata: Codable, Hashable, Sendable {
    /// `result_type`: `recent` throughout the document.
    public var resultType: String
    /// `iso_language_code`: the tweet's language, like `ja`.
    public var isoLanguageCode: String
}

/// A tweet's author.
public struct TwitterUser: Codable, Hashable, Sendable {
    /// The user's id (exact in the document: small enough for a double).
    public var id: Int
    /// `id_str`: ``id`` as a string.
    public var idStr: String
    /// The display name, like `AYUMI`.
    public var name: String
    /// `screen_name`: the handle without `@`, like `ayuu0123`.
    public var screenName: String
    /// The free-text location; empty for most users in the document.
    public var location: String
    /// The profile's bio; may be empty.
    public var description: String
    /// The profile's link (a `t.co` address), or null.
    public var url: String?
    /// The links found in ``description`` and ``url``.
    public var entities: TwitterUserEntities
    /// Whether the account's tweets are private; false throughout the document.
    public var protected: Bool
    /// `followers_count`: how many accounts follow the user.
    public var followersCount: Int
    /// `friends_count`: how many accounts the user follows.
    public var friendsCount: Int
    /// `listed_count`: how many lists include the user.
    public var listedCount: Int
    /// `created_at`: when the account was made, undecoded, like `Sat Feb 16 13:40:25 +0000 2013`.
    public var createdAt: String
    /// `favourites_count` (British spelling, as in the JSON): how many tweets the user favorited.
    public var favouritesCount: Int
    /// `utc_offset`: seconds east of UTC, like `32400` for Tokyo, or null.
    public var utcOffset: Int?
    /// `time_zone`: a time-zone name like `Tokyo`, or null.
    public var timeZone: String?
    /// `geo_enabled`: whether the user lets tweets carry a location.
    public var geoEnabled: Bool
    /// Whether the account is verified; false throughout the document.
    public var verified: Bool
    /// `statuses_count`: how many tweets the user has posted.
    public var statusesCount: Int
    /// The user's interface language, like `ja` or `en`.
    public var lang: String
    /// `contributors_enabled`: whether others may tweet for the account; false throughout the document.
    public var contributorsEnabled: Bool
    /// `is_translator`: whether the user volunteers as a Twitter translator; false throughout the document.
    public var isTranslator: Bool
    /// `is_translation_enabled`: an account flag; false throughout the document.
    public var isTranslationEnabled: Bool
    /// `profile_background_color`: a hex colour without `#`, like `C0DEED`.
    public var profileBackgroundColor: String
    /// `profile_background_image_url`: the profile background image over HTTP.
    public var profileBackgroundImageUrl: String
    /// `profile_background_image_url_https`: the same image over HTTPS.
    public var profileBackgroundImageUrlHttps: String
    /// `profile_background_tile`: whether the background image is tiled.
    public var profileBackgroundTile: Bool
    /// `profile_image_url`: the avatar over HTTP.
    public var profileImageUrl: String
    /// `profile_image_url_https`: the avatar over HTTPS.
    public var profileImageUrlHttps: String
    /// `profile_banner_url`: the banner image; absent for users without one.
    public var profileBannerUrl: String?
    /// `profile_link_color`: a hex colour without `#`, like `0084B4`.
    public var profileLinkColor: String
    /// `profile_sidebar_border_color`: a hex colour without `#`.
    public var profileSidebarBorderColor: String
    /// `profile_sidebar_fill_color`: a hex colour without `#`.
    public var profileSidebarFillColor: String
    /// `profile_text_color`: a hex colour without `#`.
    public var profileTextColor: String
    /// `profile_use_background_image`: whether the profile shows its background image.
    public var profileUseBackgroundImage: Bool
    /// `default_profile`: whether the user kept the default theme.
    public var defaultProfile: Bool
    /// `default_profile_image`: whether the user kept the default avatar.
    public var defaultProfileImage: Bool
    /// Whether the searching account follows the user; false throughout the document.
    public var following: Bool
    /// `follow_request_sent`: whether the searching account asked to follow; false throughout the document.
    public var followRequestSent: Bool
    /// Whether the searching account is notified of the user's tweets; false throughout the document.
    public var notifications: Bool
}

/// A user's `entities`.
public struct TwitterUserEntities: Codable, Hashable, Sendable {
    /// The links in the user's ``TwitterUser/description``; usually `{"urls": []}`.
    public var description: TwitterURLList
    /// The expansion of ``TwitterUser/url``; present only when the user has one.
    public var url: TwitterURLList?
}

/// `{"urls": [...]}`.
public struct TwitterURLList: Codable, Hashable, Sendable {
    /// The links, each with its expansion and position.
    public var urls: [TwitterURL]
}

/// A tweet's `entities`.
public struct TwitterEntities: Codable, Hashable, Sendable {
    /// The hashtags in the text.
    public var hashtags: [TwitterHashtag]
    /// Cashtags like `$AAPL`; empty throughout the document, so `String` elements are never decoded.
    public var symbols: [String]
    /// The links in the text.
    public var urls: [TwitterURL]
    /// `user_mentions`: the `@handles` in the text.
    public var userMentions: [TwitterUserMention]
    /// Attached photos; absent when there are none.
    public var media: [TwitterMedia]?
}

/// A hashtag in a tweet's text.
public struct TwitterHashtag: Codable, Hashable, Sendable {
    /// The tag without `#`, like `LEDカツカツ選手権`.
    public var text: String
    /// `[start, end)` of `#tag` in the tweet's text, in Unicode scalars.
    public var indices: [Int]
}

/// A link in a text: its `t.co` form and the address it stands for.
public struct TwitterURL: Codable, Hashable, Sendable {
    /// The `t.co` link as the text holds it.
    public var url: String
    /// `expanded_url`: the full address.
    public var expandedUrl: String
    /// `display_url`: the short form clients show, like `twpf.jp/yuttari1998`.
    public var displayUrl: String
    /// `[start, end)` of ``url`` in the text, in Unicode scalars.
    public var indices: [Int]
}

/// An `@handle` in a tweet's text.
public struct TwitterUserMention: Codable, Hashable, Sendable {
    /// `screen_name`: the handle without `@`.
    public var screenName: String
    /// The mentioned user's display name.
    public var name: String
    /// The mentioned user's id (exact in the document).
    public var id: Int
    /// `id_str`: ``id`` as a string.
    public var idStr: String
    /// `[start, end)` of `@handle` in the tweet's text, in Unicode scalars.
    public var indices: [Int]
}

/// A photo attached to a tweet, from `entities.media`.
public struct TwitterMedia: Codable, Hashable, Sendable {
    /// The media's id; the document's number is rounded (it went through a double), ``idStr`` is exact.
    public var id: Int
    /// `id_str`: the media's exact id, as a string.
    public var idStr: String
    /// `[start, end)` of the media's ``url`` in the tweet's text, in Unicode scalars.
    public var indices: [Int]
    /// `media_url`: the image over HTTP.
    public var mediaUrl: String
    /// `media_url_https`: the image over HTTPS.
    public var mediaUrlHttps: String
    /// The `t.co` link that stands for the media in the text.
    public var url: String
    /// `display_url`: the short form clients show, like `pic.twitter.com/PkCJAcSuYK`.
    public var displayUrl: String
    /// `expanded_url`: the photo's page on twitter.com.
    public var expandedUrl: String
    /// The kind of media: `photo` throughout the document.
    public var type: String
    /// The image at each size, keyed `thumb`, `small`, `medium` and `large`.
    public var sizes: [String: TwitterMediaSize]
    /// `source_status_id`: the tweet the photo was first posted with, when reused; rounded like ``id``.
    public var sourceStatusId: Int?
    /// `source_status_id_str`: the exact ``sourceStatusId`` as a string.
    public var sourceStatusIdStr: String?
}

/// One size of a media image.
public struct TwitterMediaSize: Codable, Hashable, Sendable {
    /// The width in pixels.
    public var w: Int
    /// The height in pixels.
    public var h: Int
    /// How the image was scaled to this size: `fit`, or `crop` for `thumb`.
    public var resize: String
}


// MARK: - Written by @TapeDecodable (BenchmarkModelExpansionTests checks it; see there to rewrite it)

extension TwitterDocument: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .statuses, .searchMetadata:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.statuses = try container.decodeProperty(\Self.statuses, forKey: .statuses)
        self.searchMetadata = try container.decodeProperty(\Self.searchMetadata, forKey: .searchMetadata)
    }
}

extension TwitterSearchMetadata: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .completedIn, .maxId, .maxIdStr, .nextResults, .query, .refreshUrl, .count, .sinceId, .sinceIdStr:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.completedIn = try container.decodeProperty(\Self.completedIn, forKey: .completedIn)
        self.maxId = try container.decodeProperty(\Self.maxId, forKey: .maxId)
        self.maxIdStr = try container.decodeProperty(\Self.maxIdStr, forKey: .maxIdStr)
        self.nextResults = try container.decodeProperty(\Self.nextResults, forKey: .nextResults)
        self.query = try container.decodeProperty(\Self.query, forKey: .query)
        self.refreshUrl = try container.decodeProperty(\Self.refreshUrl, forKey: .refreshUrl)
        self.count = try container.decodeProperty(\Self.count, forKey: .count)
        self.sinceId = try container.decodeProperty(\Self.sinceId, forKey: .sinceId)
        self.sinceIdStr = try container.decodeProperty(\Self.sinceIdStr, forKey: .sinceIdStr)
    }
}

extension TwitterStatus: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .metadata, .createdAt, .id, .idStr, .text, .source, .truncated, .inReplyToStatusId, .inReplyToStatusIdStr, .inReplyToUserId, .inReplyToUserIdStr, .inReplyToScreenName, .user, .geo, .coordinates, .place, .contributors, .retweetCount, .favoriteCount, .entities, .favorited, .retweeted, .lang, .retweetedStatus, .possiblySensitive:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.metadata = try container.decodeProperty(\Self.metadata, forKey: .metadata)
        self.createdAt = try container.decodeProperty(\Self.createdAt, forKey: .createdAt)
        self.id = try container.decodeProperty(\Self.id, forKey: .id)
        self.idStr = try container.decodeProperty(\Self.idStr, forKey: .idStr)
        self.text = try container.decodeProperty(\Self.text, forKey: .text)
        self.source = try container.decodeProperty(\Self.source, forKey: .source)
        self.truncated = try container.decodeProperty(\Self.truncated, forKey: .truncated)
        self.inReplyToStatusId = try container.decodeProperty(\Self.inReplyToStatusId, forKey: .inReplyToStatusId)
        self.inReplyToStatusIdStr = try container.decodeProperty(\Self.inReplyToStatusIdStr, forKey: .inReplyToStatusIdStr)
        self.inReplyToUserId = try container.decodeProperty(\Self.inReplyToUserId, forKey: .inReplyToUserId)
        self.inReplyToUserIdStr = try container.decodeProperty(\Self.inReplyToUserIdStr, forKey: .inReplyToUserIdStr)
        self.inReplyToScreenName = try container.decodeProperty(\Self.inReplyToScreenName, forKey: .inReplyToScreenName)
        self.user = try container.decodeProperty(\Self.user, forKey: .user)
        self.geo = try container.decodeProperty(\Self.geo, forKey: .geo)
        self.coordinates = try container.decodeProperty(\Self.coordinates, forKey: .coordinates)
        self.place = try container.decodeProperty(\Self.place, forKey: .place)
        self.contributors = try container.decodeProperty(\Self.contributors, forKey: .contributors)
        self.retweetCount = try container.decodeProperty(\Self.retweetCount, forKey: .retweetCount)
        self.favoriteCount = try container.decodeProperty(\Self.favoriteCount, forKey: .favoriteCount)
        self.entities = try container.decodeProperty(\Self.entities, forKey: .entities)
        self.favorited = try container.decodeProperty(\Self.favorited, forKey: .favorited)
        self.retweeted = try container.decodeProperty(\Self.retweeted, forKey: .retweeted)
        self.lang = try container.decodeProperty(\Self.lang, forKey: .lang)
        self.retweetedStatus = try container.decodeProperty(\Self.retweetedStatus, forKey: .retweetedStatus)
        self.possiblySensitive = try container.decodeProperty(\Self.possiblySensitive, forKey: .possiblySensitive)
    }
}

extension TwitterStatusMetadata: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .resultType, .isoLanguageCode:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.resultType = try container.decodeProperty(\Self.resultType, forKey: .resultType)
        self.isoLanguageCode = try container.decodeProperty(\Self.isoLanguageCode, forKey: .isoLanguageCode)
    }
}

extension TwitterUser: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .id, .idStr, .name, .screenName, .location, .description, .url, .entities, .protected, .followersCount, .friendsCount, .listedCount, .createdAt, .favouritesCount, .utcOffset, .timeZone, .geoEnabled, .verified, .statusesCount, .lang, .contributorsEnabled, .isTranslator, .isTranslationEnabled, .profileBackgroundColor, .profileBackgroundImageUrl, .profileBackgroundImageUrlHttps, .profileBackgroundTile, .profileImageUrl, .profileImageUrlHttps, .profileBannerUrl, .profileLinkColor, .profileSidebarBorderColor, .profileSidebarFillColor, .profileTextColor, .profileUseBackgroundImage, .defaultProfile, .defaultProfileImage, .following, .followRequestSent, .notifications:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.id = try container.decodeProperty(\Self.id, forKey: .id)
        self.idStr = try container.decodeProperty(\Self.idStr, forKey: .idStr)
        self.name = try container.decodeProperty(\Self.name, forKey: .name)
        self.screenName = try container.decodeProperty(\Self.screenName, forKey: .screenName)
        self.location = try container.decodeProperty(\Self.location, forKey: .location)
        self.description = try container.decodeProperty(\Self.description, forKey: .description)
        self.url = try container.decodeProperty(\Self.url, forKey: .url)
        self.entities = try container.decodeProperty(\Self.entities, forKey: .entities)
        self.protected = try container.decodeProperty(\Self.protected, forKey: .protected)
        self.followersCount = try container.decodeProperty(\Self.followersCount, forKey: .followersCount)
        self.friendsCount = try container.decodeProperty(\Self.friendsCount, forKey: .friendsCount)
        self.listedCount = try container.decodeProperty(\Self.listedCount, forKey: .listedCount)
        self.createdAt = try container.decodeProperty(\Self.createdAt, forKey: .createdAt)
        self.favouritesCount = try container.decodeProperty(\Self.favouritesCount, forKey: .favouritesCount)
        self.utcOffset = try container.decodeProperty(\Self.utcOffset, forKey: .utcOffset)
        self.timeZone = try container.decodeProperty(\Self.timeZone, forKey: .timeZone)
        self.geoEnabled = try container.decodeProperty(\Self.geoEnabled, forKey: .geoEnabled)
        self.verified = try container.decodeProperty(\Self.verified, forKey: .verified)
        self.statusesCount = try container.decodeProperty(\Self.statusesCount, forKey: .statusesCount)
        self.lang = try container.decodeProperty(\Self.lang, forKey: .lang)
        self.contributorsEnabled = try container.decodeProperty(\Self.contributorsEnabled, forKey: .contributorsEnabled)
        self.isTranslator = try container.decodeProperty(\Self.isTranslator, forKey: .isTranslator)
        self.isTranslationEnabled = try container.decodeProperty(\Self.isTranslationEnabled, forKey: .isTranslationEnabled)
        self.profileBackgroundColor = try container.decodeProperty(\Self.profileBackgroundColor, forKey: .profileBackgroundColor)
        self.profileBackgroundImageUrl = try container.decodeProperty(\Self.profileBackgroundImageUrl, forKey: .profileBackgroundImageUrl)
        self.profileBackgroundImageUrlHttps = try container.decodeProperty(\Self.profileBackgroundImageUrlHttps, forKey: .profileBackgroundImageUrlHttps)
        self.profileBackgroundTile = try container.decodeProperty(\Self.profileBackgroundTile, forKey: .profileBackgroundTile)
        self.profileImageUrl = try container.decodeProperty(\Self.profileImageUrl, forKey: .profileImageUrl)
        self.profileImageUrlHttps = try container.decodeProperty(\Self.profileImageUrlHttps, forKey: .profileImageUrlHttps)
        self.profileBannerUrl = try container.decodeProperty(\Self.profileBannerUrl, forKey: .profileBannerUrl)
        self.profileLinkColor = try container.decodeProperty(\Self.profileLinkColor, forKey: .profileLinkColor)
        self.profileSidebarBorderColor = try container.decodeProperty(\Self.profileSidebarBorderColor, forKey: .profileSidebarBorderColor)
        self.profileSidebarFillColor = try container.decodeProperty(\Self.profileSidebarFillColor, forKey: .profileSidebarFillColor)
        self.profileTextColor = try container.decodeProperty(\Self.profileTextColor, forKey: .profileTextColor)
        self.profileUseBackgroundImage = try container.decodeProperty(\Self.profileUseBackgroundImage, forKey: .profileUseBackgroundImage)
        self.defaultProfile = try container.decodeProperty(\Self.defaultProfile, forKey: .defaultProfile)
        self.defaultProfileImage = try container.decodeProperty(\Self.defaultProfileImage, forKey: .defaultProfileImage)
        self.following = try container.decodeProperty(\Self.following, forKey: .following)
        self.followRequestSent = try container.decodeProperty(\Self.followRequestSent, forKey: .followRequestSent)
        self.notifications = try container.decodeProperty(\Self.notifications, forKey: .notifications)
    }
}

extension TwitterUserEntities: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .description, .url:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.description = try container.decodeProperty(\Self.description, forKey: .description)
        self.url = try container.decodeProperty(\Self.url, forKey: .url)
    }
}

extension TwitterURLList: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .urls:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.urls = try container.decodeProperty(\Self.urls, forKey: .urls)
    }
}

extension TwitterEntities: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .hashtags, .symbols, .urls, .userMentions, .media:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.hashtags = try container.decodeProperty(\Self.hashtags, forKey: .hashtags)
        self.symbols = try container.decodeProperty(\Self.symbols, forKey: .symbols)
        self.urls = try container.decodeProperty(\Self.urls, forKey: .urls)
        self.userMentions = try container.decodeProperty(\Self.userMentions, forKey: .userMentions)
        self.media = try container.decodeProperty(\Self.media, forKey: .media)
    }
}

extension TwitterHashtag: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .text, .indices:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.text = try container.decodeProperty(\Self.text, forKey: .text)
        self.indices = try container.decodeProperty(\Self.indices, forKey: .indices)
    }
}

extension TwitterURL: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .url, .expandedUrl, .displayUrl, .indices:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.url = try container.decodeProperty(\Self.url, forKey: .url)
        self.expandedUrl = try container.decodeProperty(\Self.expandedUrl, forKey: .expandedUrl)
        self.displayUrl = try container.decodeProperty(\Self.displayUrl, forKey: .displayUrl)
        self.indices = try container.decodeProperty(\Self.indices, forKey: .indices)
    }
}

extension TwitterUserMention: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .screenName, .name, .id, .idStr, .indices:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.screenName = try container.decodeProperty(\Self.screenName, forKey: .screenName)
        self.name = try container.decodeProperty(\Self.name, forKey: .name)
        self.id = try container.decodeProperty(\Self.id, forKey: .id)
        self.idStr = try container.decodeProperty(\Self.idStr, forKey: .idStr)
        self.indices = try container.decodeProperty(\Self.indices, forKey: .indices)
    }
}

extension TwitterMedia: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .id, .idStr, .indices, .mediaUrl, .mediaUrlHttps, .url, .displayUrl, .expandedUrl, .type, .sizes, .sourceStatusId, .sourceStatusIdStr:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.id = try container.decodeProperty(\Self.id, forKey: .id)
        self.idStr = try container.decodeProperty(\Self.idStr, forKey: .idStr)
        self.indices = try container.decodeProperty(\Self.indices, forKey: .indices)
        self.mediaUrl = try container.decodeProperty(\Self.mediaUrl, forKey: .mediaUrl)
        self.mediaUrlHttps = try container.decodeProperty(\Self.mediaUrlHttps, forKey: .mediaUrlHttps)
        self.url = try container.decodeProperty(\Self.url, forKey: .url)
        self.displayUrl = try container.decodeProperty(\Self.displayUrl, forKey: .displayUrl)
        self.expandedUrl = try container.decodeProperty(\Self.expandedUrl, forKey: .expandedUrl)
        self.type = try container.decodeProperty(\Self.type, forKey: .type)
        self.sizes = try container.decodeProperty(\Self.sizes, forKey: .sizes)
        self.sourceStatusId = try container.decodeProperty(\Self.sourceStatusId, forKey: .sourceStatusId)
        self.sourceStatusIdStr = try container.decodeProperty(\Self.sourceStatusIdStr, forKey: .sourceStatusIdStr)
    }
}

extension TwitterMediaSize: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .w, .h, .resize:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.w = try container.decodeProperty(\Self.w, forKey: .w)
        self.h = try container.decodeProperty(\Self.h, forKey: .h)
        self.resize = try container.decodeProperty(\Self.resize, forKey: .resize)
    }
}
