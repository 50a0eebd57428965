internal import CDRM
import Devices
import Glibc
import StillroomCore
import SystemCalls

/// An open DRM card node, and what it offers. The raw libdrm calls live here and in `DRMDisplay`.
final class DRMDevice {
    let path: String
    private let descriptor: FileDescriptor
    var fd: Int32 { descriptor.rawValue }

    init(path: String) throws(DisplayError) {
        do throws(SystemError) {
            descriptor = try FileDescriptor.open(path, O_RDWR)
        } catch {
            let kind: DisplayError.Kind = error.errno == EACCES || error.errno == EPERM ? .busy : .failed
            throw DisplayError(kind, "cannot open \(path): \(error.reason)"
                               + (error.errno == EACCES ? " (the service needs the video group)" : ""))
        }
        self.path = path
    }

    /// The card nodes in `directory` (/dev/dri/card0, card1, …), in number order.
    static func cardPaths(in directory: String) -> [String] {
        let names = ((try? Files.listDirectory(directory)) ?? []).filter { $0.hasPrefix("card") && Int($0.dropFirst(4)) != nil }
        return names.sorted { Int($0.dropFirst(4))! < Int($1.dropFirst(4))! }.map { directory + "/" + $0 }
    }

    /// The kernel driver's name ("vc4").
    var driver: String {
        guard let version = drmGetVersion(fd) else { return "unknown" }
        defer { drmFreeVersion(version) }
        guard let name = version.pointee.name else { return "unknown" }
        return String(cString: name)
    }

    func capability(_ capability: UInt64) -> UInt64? {
        var value: UInt64 = 0
        return drmGetCap(fd, capability, &value) == 0 ? value : nil
    }

    /// The card as data: CRTCs, encoders, connectors and modes (a card without KMS has none).
    func describe() -> DRMCardDescription {
        let dumb = (capability(UInt64(DRM_CAP_DUMB_BUFFER)) ?? 0) != 0
        var description = DRMCardDescription(path: path, driver: driver, supportsDumbBuffers: dumb,
                                             crtcIDs: [], encoders: [], connectors: [])
        guard let resources = drmModeGetResources(fd) else { return description }
        defer { drmModeFreeResources(resources) }
        let res = resources.pointee
        description.crtcIDs = Array(UnsafeBufferPointer(start: res.crtcs, count: Int(res.count_crtcs)))
        for encoderID in UnsafeBufferPointer(start: res.encoders, count: Int(res.count_encoders)) {
            guard let encoder = drmModeGetEncoder(fd, encoderID) else { continue }
            description.encoders.append(DRMEncoderDescription(id: encoder.pointee.encoder_id, crtcID: encoder.pointee.crtc_id,
                                                              possibleCRTCs: encoder.pointee.possible_crtcs))
            drmModeFreeEncoder(encoder)
        }
        for connectorID in UnsafeBufferPointer(start: res.connectors, count: Int(res.count_connectors)) {
            guard let connector = drmModeGetConnector(fd, connectorID) else { continue }
            defer { drmModeFreeConnector(connector) }
            let c = connector.pointee
            let connection: DRMConnectorDescription.Connection
            switch c.connection {
            case DRM_MODE_CONNECTED: connection = .connected
            case DRM_MODE_DISCONNECTED: connection = .disconnected
            default: connection = .unknown
            }
            let modes = UnsafeBufferPointer(start: c.modes, count: Int(c.count_modes)).map(Self.describe)
            description.connectors.append(DRMConnectorDescription(
                id: c.connector_id, type: c.connector_type, typeIndex: c.connector_type_id, connection: connection,
                encoderID: c.encoder_id, encoderIDs: Array(UnsafeBufferPointer(start: c.encoders, count: Int(c.count_encoders))),
                modes: modes))
        }
        return description
    }

    static func describe(_ mode: drmModeModeInfo) -> DRMModeDescription {
        let name = withUnsafeBytes(of: mode.name) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return DRMModeDescription(name: name, width: Int(mode.hdisplay), height: Int(mode.vdisplay),
                                  refresh: Int(mode.vrefresh), preferred: mode.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0)
    }

    /// Every card in `directory`, described (cards that cannot be opened are skipped, with the reason).
    static func describeAll(in directory: String) -> (cards: [DRMCardDescription], problems: [String]) {
        var cards: [DRMCardDescription] = []
        var problems: [String] = []
        for path in cardPaths(in: directory) {
            do {
                cards.append(try DRMDevice(path: path).describe())
            } catch {
                problems.append(error.detail)
            }
        }
        return (cards, problems)
    }
}

/// libdrm's ioctl wrappers return -errno (or -1 with errno set); this names the failure.
func drmFailure(_ operation: String, _ result: Int32) -> DisplayError {
    let code = result < -1 ? -result : errno
    return DisplayError(.failed, SystemError(operation, errno: code).description)
}
