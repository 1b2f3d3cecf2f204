import Foundation

/// Foundation's `convertFromSnakeCase`, step for step, so that keys match exactly as they would with
/// `JSONDecoder`: leading and trailing underscores are kept, inner runs of underscores split words,
/// the first word is lowercased and the others capitalized, and a key without inner underscores is
/// left alone.
enum SnakeCase {
    static func convert(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        guard let firstNonUnderscore = key.firstIndex(where: { $0 != "_" }) else { return key }
        var lastNonUnderscore = key.index(before: key.endIndex)
        while lastNonUnderscore > firstNonUnderscore && key[lastNonUnderscore] == "_" {
            key.formIndex(before: &lastNonUnderscore)
        }
        let keyRange = firstNonUnderscore...lastNonUnderscore
        let leading = key[key.startIndex..<firstNonUnderscore]
        let trailing = key[key.index(after: lastNonUnderscore)..<key.endIndex]
        let components = key[keyRange].split(separator: "_")
        let joined: String
        if components.count == 1 {
            joined = String(key[keyRange])
        } else {
            joined = ([components[0].lowercased()] + components[1...].map { $0.capitalized }).joined()
        }
        return leading.isEmpty && trailing.isEmpty ? joined : String(leading) + joined + String(trailing)
    }

    /// Foundation's `convertToSnakeCase`, step for step: words split where lowercase turns uppercase,
    /// and a run of capitals is a word of its own up to the capital before the next lowercase letter
    /// (`myURLProperty` is `my_url_property`); the words are lowercased and joined with `_`.
    /// Letters are classified by `CharacterSet` as Foundation classifies them.
    static func fromCamelCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        var words: [Range<String.Index>] = []
        var wordStart = key.startIndex
        var searchRange = key.index(after: wordStart)..<key.endIndex
        while let upperCaseRange = key.rangeOfCharacter(from: .uppercaseLetters, options: [], range: searchRange) {
            words.append(wordStart..<upperCaseRange.lowerBound)
            searchRange = upperCaseRange.lowerBound..<searchRange.upperBound
            guard let lowerCaseRange = key.rangeOfCharacter(from: .lowercaseLetters, options: [], range: searchRange)
            else {
                // No lowercase letter follows: the rest is one word.
                wordStart = searchRange.lowerBound
                break
            }
            let nextCharacterAfterCapital = key.index(after: upperCaseRange.lowerBound)
            if lowerCaseRange.lowerBound == nextCharacterAfterCapital {
                // One capital then lowercase: the capital starts the next word.
                wordStart = upperCaseRange.lowerBound
            } else {
                // A run of capitals is a word, up to the capital before the lowercase letter.
                let beforeLowerIndex = key.index(before: lowerCaseRange.lowerBound)
                words.append(upperCaseRange.lowerBound..<beforeLowerIndex)
                wordStart = beforeLowerIndex
            }
            searchRange = lowerCaseRange.upperBound..<searchRange.upperBound
        }
        words.append(wordStart..<searchRange.upperBound)
        return words.map { key[$0].lowercased() }.joined(separator: "_")
    }
}
