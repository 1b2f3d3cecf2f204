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
}
