import Devices
import StillroomCore

/// What the board file asks of the display; every field optional.
public struct DRMPreference: Hashable, Sendable {
    /// Only cards with this driver ("vc4"); nil: any KMS card, `preferredDrivers` first.
    public var driver: String?
    /// Drivers tried first when `driver` is nil: the Pi's display controller is vc4, and a Pi 4/5 also
    /// has a render-only v3d card whose number changes from boot to boot.
    public var preferredDrivers: [String]
    /// A connector by its kernel name ("DSI-1", "HDMI-A-1", "SPI-1"); nil: the best connected one.
    public var connector: String?
    /// A mode by size (and refresh); nil: the connector's preferred mode.
    public var mode: PixelSize?
    public var refresh: Int?

    public init(driver: String? = nil, preferredDrivers: [String] = ["vc4"], connector: String? = nil,
                mode: PixelSize? = nil, refresh: Int? = nil) {
        self.driver = driver
        self.preferredDrivers = preferredDrivers
        self.connector = connector
        self.mode = mode
        self.refresh = refresh
    }
}

extension DRMPreference {
    /// Parses a board file's mode: "800x480" or "800x480@60". Nil when malformed.
    public static func parseMode(_ text: String) -> (size: PixelSize, refresh: Int?)? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2, let size = PixelSize(parsing: String(parts[0])) else { return nil }
        guard parts.count == 2 else { return (size, nil) }
        guard let refresh = Int(parts[1]), refresh > 0, refresh <= 240 else { return nil }
        return (size, refresh)
    }
}

/// The card, connector, mode and CRTC to drive.
public struct DRMChoice: Hashable, Sendable, CustomStringConvertible {
    public var cardPath: String
    public var driver: String
    public var connectorID: UInt32
    public var connectorName: String
    /// The index of `mode` in the connector's mode list (to find the kernel's mode struct again).
    public var modeIndex: Int
    public var mode: DRMModeDescription
    public var crtcID: UInt32
    /// Things worth a log line: a board-file mode the connector lacks, say.
    public var notes: [String]

    public var description: String { "\(driver) \(connectorName) \(mode) (\(cardPath), crtc \(crtcID))" }
}

/// Chooses the card, connector, mode and CRTC from captured descriptions. Pure, so it is tested on
/// descriptions of real boards without their hardware.
public enum DRMSelection {
    /// The choice for `preference` among `cards`, or a `.notFound` error that says what was there.
    public static func choose(from cards: [DRMCardDescription],
                              preference: DRMPreference = DRMPreference()) -> Result<DRMChoice, DisplayError> {
        guard !cards.isEmpty else {
            return .failure(DisplayError(.notFound, "no DRM device (no /dev/dri/card*: no KMS driver is loaded)"))
        }
        var candidates = cards
        if let driver = preference.driver {
            candidates = cards.filter { $0.driver == driver }
            if candidates.isEmpty {
                return .failure(DisplayError(.notFound, "no DRM card with driver \(driver); found \(summary(cards))"))
            }
        }
        let order = { (card: DRMCardDescription) -> Int in
            preference.preferredDrivers.firstIndex(of: card.driver) ?? preference.preferredDrivers.count
        }
        candidates = candidates.enumerated().sorted { (order($0.element), $0.offset) < (order($1.element), $1.offset) }
            .map(\.element)

        var reasons: [String] = []
        for card in candidates {
            guard card.supportsDumbBuffers, !card.crtcIDs.isEmpty, !card.connectors.isEmpty else {
                reasons.append("\(card.path) (\(card.driver)): no display outputs")
                continue
            }
            switch choose(on: card, preference: preference) {
            case .success(let choice): return .success(choice)
            case .failure(let reason): reasons.append("\(card.path) (\(card.driver)): \(reason.detail)")
            }
        }
        return .failure(DisplayError(.notFound, "no display: " + reasons.joined(separator: "; ")))
    }

    /// The choice on one card.
    static func choose(on card: DRMCardDescription, preference: DRMPreference) -> Result<DRMChoice, DisplayError> {
        let connector: DRMConnectorDescription
        if let name = preference.connector {
            guard let named = card.connectors.first(where: { $0.name == name }) else {
                let names = card.connectors.map(\.name).joined(separator: ", ")
                return .failure(DisplayError(.notFound, "no connector \(name) (has \(names))"))
            }
            guard named.connection == .connected, !named.modes.isEmpty else {
                return .failure(DisplayError(.notFound, "\(name) is \(named.connection.rawValue), no modes"))
            }
            connector = named
        } else {
            let usable = card.connectors.enumerated().filter { $0.element.rank != nil && $0.element.connection == .connected
                && !$0.element.modes.isEmpty }
            guard let best = usable.min(by: { ($0.element.rank!, $0.offset) < ($1.element.rank!, $1.offset) }) else {
                let states = card.connectors.map { "\($0.name) \($0.connection.rawValue)" }.joined(separator: ", ")
                return .failure(DisplayError(.notFound, "nothing connected (\(states))"))
            }
            connector = best.element
        }

        var notes: [String] = []
        let modeIndex: Int
        if let wanted = preference.mode {
            let matching = connector.modes.indices.filter {
                connector.modes[$0].size == wanted && (preference.refresh == nil || connector.modes[$0].refresh == preference.refresh)
            }
            if let index = matching.max(by: { rankMode(connector.modes[$0]) < rankMode(connector.modes[$1]) }) {
                modeIndex = index
            } else {
                modeIndex = defaultMode(connector.modes)
                let offered = connector.modes.map(\.description).joined(separator: ", ")
                notes.append("\(connector.name) has no mode \(wanted)\(preference.refresh.map { "@\($0)" } ?? "") "
                             + "(offers \(offered)); using \(connector.modes[modeIndex])")
            }
        } else {
            modeIndex = defaultMode(connector.modes)
        }

        guard let crtc = crtc(for: connector, on: card) else {
            return .failure(DisplayError(.notFound, "no CRTC can drive \(connector.name)"))
        }
        return .success(DRMChoice(cardPath: card.path, driver: card.driver, connectorID: connector.id,
                                  connectorName: connector.name, modeIndex: modeIndex,
                                  mode: connector.modes[modeIndex], crtcID: crtc, notes: notes))
    }

    /// The preferred mode; without one, the first (the kernel lists the best first).
    static func defaultMode(_ modes: [DRMModeDescription]) -> Int {
        modes.firstIndex(where: \.preferred) ?? 0
    }

    /// Among modes of one size: the preferred one, then the highest refresh.
    private static func rankMode(_ mode: DRMModeDescription) -> (Int, Int) { (mode.preferred ? 1 : 0, mode.refresh) }

    /// The CRTC driving the connector now, or the first one an encoder of it can use.
    static func crtc(for connector: DRMConnectorDescription, on card: DRMCardDescription) -> UInt32? {
        if connector.encoderID != 0, let encoder = card.encoders.first(where: { $0.id == connector.encoderID }),
           encoder.crtcID != 0, card.crtcIDs.contains(encoder.crtcID) {
            return encoder.crtcID
        }
        for encoderID in connector.encoderIDs {
            guard let encoder = card.encoders.first(where: { $0.id == encoderID }) else { continue }
            for (index, crtc) in card.crtcIDs.enumerated() where index < 32 && encoder.possibleCRTCs & (1 << UInt32(index)) != 0 {
                return crtc
            }
        }
        return nil
    }

    private static func summary(_ cards: [DRMCardDescription]) -> String {
        cards.map { "\($0.path) (\($0.driver))" }.joined(separator: ", ")
    }
}
