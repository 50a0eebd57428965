/// Why one value (an id, a path, a URL, a digest) was refused, in words fit for a problem message.
///
/// It carries no file or field: the caller knows those and wraps it in a `ContentProblem`.
public struct InvalidValue: Error, Sendable, Equatable, CustomStringConvertible {
    /// A predicate that reads after the quoted value: `"/abs" is absolute; …`.
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
