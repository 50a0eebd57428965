import CLinuxShims
import Glibc

/// Readiness a watched file descriptor can report (the epoll event bits, by their Swift names).
public struct IOEvents: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// EPOLLIN: readable.
    public static let readable = IOEvents(rawValue: EPOLLIN.rawValue)
    /// EPOLLOUT: writable.
    public static let writable = IOEvents(rawValue: EPOLLOUT.rawValue)
    /// EPOLLPRI: urgent data (some drivers signal state changes this way).
    public static let priority = IOEvents(rawValue: EPOLLPRI.rawValue)
    /// EPOLLERR: an error condition; always reported, never needs asking for.
    public static let error = IOEvents(rawValue: EPOLLERR.rawValue)
    /// EPOLLHUP: the peer hung up; always reported.
    public static let hangUp = IOEvents(rawValue: EPOLLHUP.rawValue)
}
