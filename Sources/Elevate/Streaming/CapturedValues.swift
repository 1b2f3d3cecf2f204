import Foundation

/// The values at a set of key paths, captured from one pass over JSON data.
struct CapturedValues {
    private var values: [[String]: JSONValue] = [:]

    init(input: JSONInput, paths: [KeyPath], options: StreamingOptions = StreamingOptions()) throws {
        self = try Capture(paths: paths).run(input, options: options)
    }

    init<Chunks: AsyncSequence>(chunks: Chunks, paths: [KeyPath], options: StreamingOptions = StreamingOptions())
        async throws where Chunks.Element: Sequence<UInt8>
    {
        self = try await Capture(paths: paths).run(chunks, options: options)
    }

    private init(values: [[String]: JSONValue], rootIsScalar: Bool, rootIsArray: Bool) {
        self.values = values
        self.rootIsScalar = rootIsScalar
        self.rootIsArray = rootIsArray
    }

    /// The pass that captures the values at the paths (and, for Elevate's rule, at each path's
    /// literal dotted alternative).
    private final class Capture: DocumentPass {
        let selector: KeyPathSelector
        private var captured: [[String]: JSONValue] = [:]

        init(paths: [KeyPath]) {
            var componentsByTarget: [[String]] = []
            var targets: [KeyPathSelector.Target] = []
            for path in paths {
                for var target in [KeyPathSelector.Target].candidates(for: path, mode: .value) {
                    target.id = componentsByTarget.count
                    componentsByTarget.append(target.components)
                    targets.append(target)
                }
            }
            var callbacks = KeyPathSelector.Callbacks()
            selector = KeyPathSelector(targets: targets, callbacks: callbacks)
            // The callbacks write into this pass, which the selector does not own: no cycle.
            callbacks.value = { [unowned self] target, value in captured[componentsByTarget[target]] = value }
            // A repeated key: the later occurrence replaces the earlier one whole, never merged.
            callbacks.duplicateKey = { [unowned self] repeated, _ in
                for target in repeated { captured[componentsByTarget[target]] = nil }
            }
            selector.callbacks = callbacks
        }

        func result() -> CapturedValues {
            CapturedValues(
                values: captured, rootIsScalar: selector.rootIsContainer == false, rootIsArray: selector.rootIsArray == true)
        }
    }

    /// Whether the document's root is a string, number, Boolean or null.
    private(set) var rootIsScalar = false

    /// Whether the document's root is an array.
    private(set) var rootIsArray = false

    /// The value at `path`, with Elevate's rules: a literal dotted root key wins, and a path below
    /// a captured value is read out of it.
    func value(at path: KeyPath) -> JSONValue? {
        if path.hasLiteralAlternative, let literal = values[[path.text]] { return literal }
        let components = path.components
        // The longest captured path that starts `path`. Only the few captured paths can be it:
        // trying every prefix of `path` instead hashed O(n²) components, minutes for a path of
        // 31,000 that leads nowhere.
        var longest: (length: Int, value: JSONValue)?
        for (captured, value) in values
        where captured.count <= components.count && captured.count > (longest?.length ?? -1)
            && components.starts(with: captured)
        {
            longest = (captured.count, value)
        }
        guard let (prefixLength, found) = longest else { return nil }
        return KeyPath.walk(components[prefixLength...], from: found, strictIndices: path.isPointer).value
    }
}
