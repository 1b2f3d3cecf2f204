/// The items of ``SampleDocument/people``.
///
/// The word lists hold JSON string *contents*, already escaped, so that writing a value is a
/// plain copy. Most entries are plain ASCII; a minority carry escapes (`\"`, `\\`, `\n`, `\t`,
/// `\u00e9`, a `\ud83d\ude80` surrogate pair) or raw UTF-8, so that a uniform pick gives a
/// realistic share of both.
struct PeopleItems: SampleItemSource {
    private var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    func header(itemCount: Int) -> [UInt8] {
        var text: [UInt8] = []
        text.append("{\"response\":{\"count\":")
        text.appendDecimal(itemCount)
        text.append(",\"items\":[\n")
        return text
    }

    let footer: [UInt8] = Array("]}}\n".utf8)

    mutating func appendItem(to buffer: inout [UInt8]) {
        buffer.append("{\"identifier\":")
        buffer.appendDecimal(generator.next(in: 1...99_999_999))
        buffer.append(",\"name\":\"")
        buffer.append(contentsOf: generator.pick(Self.firstNames))
        buffer.append(UInt8(ascii: " "))
        buffer.append(contentsOf: generator.pick(Self.lastNames))
        buffer.append(UInt8(ascii: "\""))
        if generator.chance(50) {
            buffer.append(",\"nickname\":\"")
            buffer.append(contentsOf: generator.pick(Self.nicknames))
            buffer.append(UInt8(ascii: "\""))
        }
        buffer.append(",\"birthDate\":\"")
        appendBirthDate(to: &buffer)
        buffer.append(UInt8(ascii: "\""))
        if generator.chance(70) {
            buffer.append(generator.chance(60) ? ",\"isMember\":true" : ",\"isMember\":false")
        }
        buffer.append(",\"addresses\":[")
        for index in 0..<generator.next(in: 1...3) {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append("{\"street\":\"")
            buffer.appendDecimal(generator.next(in: 1...2500))
            buffer.append(UInt8(ascii: " "))
            buffer.append(contentsOf: generator.pick(Self.streets))
            buffer.append("\",\"city\":\"")
            buffer.append(contentsOf: generator.pick(Self.cities))
            buffer.append("\"}")
        }
        buffer.append("]}")
    }

    /// A valid calendar date from 1950-01-01 through 2010-12-31, as `yyyy-MM-dd`.
    private mutating func appendBirthDate(to buffer: inout [UInt8]) {
        let year = generator.next(in: 1950...2010)
        let month = generator.next(in: 1...12)
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = month == 2 ? (isLeap ? 29 : 28) : ([4, 6, 9, 11].contains(month) ? 30 : 31)
        let day = generator.next(in: 1...days)
        buffer.appendDecimal(UInt(year), minimumDigits: 4)
        buffer.append(UInt8(ascii: "-"))
        buffer.appendDecimal(UInt(month), minimumDigits: 2)
        buffer.append(UInt8(ascii: "-"))
        buffer.appendDecimal(UInt(day), minimumDigits: 2)
    }

    private static func list(_ entries: [String]) -> [[UInt8]] {
        entries.map { Array($0.utf8) }
    }

    static let firstNames = list([
        "James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William", "Elizabeth",
        "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen",
        "Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Margaret", "Dennis", "Ken", "Frances",
        "Zoë", "José", "Renée", "Jürgen", "Søren", "Chloé", "Åsa", "Łukasz",
        #"Ren\u00e9"#, #"Fran\u00e7ois"#, "太郎", "花子",
    ])

    static let lastNames = list([
        "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
        "Lovelace", "Hopper", "Turing", "Dijkstra", "Knuth", "Ritchie", "Thompson", "Allen",
        "Müller", "Doğan", "Ñúñez", "Østergård", "山田", "田中",
        #"O\"Brien"#, #"Br\u00fcck"#, #"van der Berg\t(Jr.)"#,
    ])

    static let nicknames = list([
        "Ace", "Buddy", "Chief", "Doc", "Duke", "Red", "Scout", "Slim", "Sunny", "Tiny", "Ziggy", "Bee",
        "Spark", "Kiddo", "Moose", "Pip", "Jazz", "Rocket", "Bear", "Coach",
        #"\"The Professor\""#, #"back\\slash"#, #"two\nlines"#, #"Caf\u00e9"#, #"C:\\Users\\me"#,
        "日本の友", "Über", "Étoile", "🚀 launcher", "smiley 😀", #"moon \ud83c\udf19"#,
    ])

    static let streets = list([
        "Main Street", "Oak Avenue", "Maple Drive", "Cedar Lane", "Elm Street", "Pine Road", "Lake View",
        "Hill Road", "Park Avenue", "Washington Boulevard", "Sunset Boulevard", "Broadway", "High Street",
        "Station Road", "Church Lane", "Mill Road", "Bridge Street", "Victoria Road", "Green Lane",
        "Königstraße", "Rue de l'Église", "Calle Mayor", "Friedrichstraße", "Avenida São João",
        #"Avenue \"A\""#, #"Rue du Ch\u00e2teau"#, #"Building 7\\Unit 3"#, "銀座通り",
    ])

    static let cities = list([
        "New York", "Los Angeles", "Chicago", "Houston", "Phoenix", "Philadelphia", "San Antonio", "San Diego",
        "Dallas", "Austin", "London", "Paris", "Berlin", "Madrid", "Rome", "Amsterdam", "Dublin", "Oslo",
        "Toronto", "Sydney", "Melbourne", "Singapore", "Chennai", "Seattle",
        "Zürich", "São Paulo", "Montréal", "Kraków", "Malmö", "東京", "大阪",
        #"Z\u00fcrich"#, #"Qu\u00e9bec"#, #"Saint-\u00c9tienne"#,
    ])
}
