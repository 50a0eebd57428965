import EventLoop
import StillroomCore

/// The box's time zone, read from tzdata (FoundationEssentials has no named zones): $TZ if set to a zone
/// name, else /etc/localtime. Reloaded when /etc/localtime is replaced (a time-zone change).
final class LocalTimeZone {
    private(set) var rules: TimeZoneRules = .utc
    private(set) var name = "UTC"
    private var watcher: DirectoryWatcher?
    private let environmentTZ: String?
    private let logger: Logger

    init(environment: [String: String], logger: Logger) {
        environmentTZ = environment["TZ"]
        self.logger = logger
        reload()
    }

    /// Watches /etc for a new localtime; `changed` runs after the rules were reloaded.
    func watch(loop: EventLoop, changed: @escaping () -> Void) {
        watcher = try? DirectoryWatcher(loop: loop, path: "/etc") { [unowned self] names in
            guard names.contains("localtime") else { return }
            let before = name
            reload()
            if name != before { logger.notice("time zone changed: \(before) → \(name)") }
            changed()
        }
    }

    func reload() {
        if let tz = environmentTZ, !tz.isEmpty {
            let zone = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            if !zone.contains(","), let rules = Self.read("/usr/share/zoneinfo/" + zone) {
                self.rules = rules
                name = zone
                return
            }
            if let posix = try? POSIXTimeZone(parsing: zone) {
                rules = TimeZoneRules(posix: posix)
                name = zone
                return
            }
        }
        if let rules = Self.read("/etc/localtime") {
            self.rules = rules
            name = Self.zoneName() ?? "/etc/localtime"
        } else {
            rules = .utc
            name = "UTC"
            logger.warning("time zone: /etc/localtime is missing or unreadable; using UTC")
        }
    }

    private static func read(_ path: String) -> TimeZoneRules? {
        guard !path.contains(".."), let bytes = try? FileReading.bytes(path, limit: 1 << 20) else { return nil }
        return try? TimeZoneRules(tzif: bytes)
    }

    /// "Europe/Berlin" from the /etc/localtime symlink, when it is one.
    private static func zoneName() -> String? {
        guard let target = FileReading.symlinkTarget("/etc/localtime"), let range = target.range(of: "zoneinfo/") else { return nil }
        return String(target[range.upperBound...])
    }
}
