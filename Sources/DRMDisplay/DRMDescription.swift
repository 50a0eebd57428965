import StillroomCore

// What a DRM card offers, captured as plain data: the driver, its CRTCs, encoders and connectors with
// their modes. `DRMDevice.describe` reads it from a device; tests read it from JSON fixtures. Choosing
// a connector, mode and CRTC (`DRMSelection`) works on this description only, so it is tested without
// a device.

/// One display mode of a connector.
public struct DRMModeDescription: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The kernel's name ("800x480").
    public var name: String
    public var width: Int
    public var height: Int
    /// Vertical refresh in Hz.
    public var refresh: Int
    /// The panel's or monitor's preferred mode (DRM_MODE_TYPE_PREFERRED).
    public var preferred: Bool

    public init(name: String, width: Int, height: Int, refresh: Int, preferred: Bool = false) {
        self.name = name
        self.width = width
        self.height = height
        self.refresh = refresh
        self.preferred = preferred
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
    public var description: String { "\(width)x\(height)@\(refresh)" }
}

/// One encoder: which CRTC feeds it now and which could.
public struct DRMEncoderDescription: Codable, Hashable, Sendable {
    public var id: UInt32
    /// The CRTC driving it now, 0 for none.
    public var crtcID: UInt32
    /// Bit i set: the card's i-th CRTC can drive it.
    public var possibleCRTCs: UInt32

    public init(id: UInt32, crtcID: UInt32, possibleCRTCs: UInt32) {
        self.id = id
        self.crtcID = crtcID
        self.possibleCRTCs = possibleCRTCs
    }
}

/// One connector (an HDMI port, a DSI or SPI panel, a virtual output).
public struct DRMConnectorDescription: Codable, Hashable, Sendable {
    public enum Connection: String, Codable, Sendable {
        case connected
        case disconnected
        case unknown
    }

    public var id: UInt32
    /// DRM_MODE_CONNECTOR_* (11 HDMI-A, 16 DSI, 19 SPI, 15 Virtual, …).
    public var type: UInt32
    /// The number after the type name ("HDMI-A-2" has 2).
    public var typeIndex: UInt32
    public var connection: Connection
    /// The encoder in use now, 0 for none.
    public var encoderID: UInt32
    public var encoderIDs: [UInt32]
    public var modes: [DRMModeDescription]

    public init(id: UInt32, type: UInt32, typeIndex: UInt32, connection: Connection, encoderID: UInt32,
                encoderIDs: [UInt32], modes: [DRMModeDescription]) {
        self.id = id
        self.type = type
        self.typeIndex = typeIndex
        self.connection = connection
        self.encoderID = encoderID
        self.encoderIDs = encoderIDs
        self.modes = modes
    }

    /// The kernel's name for it, as in /sys/class/drm and the video= command line ("HDMI-A-1", "DSI-1").
    public var name: String { "\(Self.typeName(type))-\(typeIndex)" }

    /// The kernel's connector type names (drm_connector_enum_list), by DRM_MODE_CONNECTOR_* value.
    public static func typeName(_ type: UInt32) -> String {
        let names = ["Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS", "Component",
                     "DIN", "DP", "HDMI-A", "HDMI-B", "TV", "eDP", "Virtual", "DSI", "DPI", "Writeback", "SPI", "USB"]
        return Int(type) < names.count ? names[Int(type)] : "Type\(type)"
    }

    /// Built-in panels come before external ports, which come before virtual and TV outputs; writeback
    /// connectors are not displays at all (nil).
    var rank: Int? {
        switch type {
        case 16, 17, 19, 7, 14: return 0 // DSI, DPI, SPI, LVDS, eDP: a panel in the box
        case 11, 12, 10, 2, 3, 4, 1: return 1 // HDMI, DisplayPort, DVI, VGA
        case 15: return 2 // Virtual (QEMU, vkms)
        case 18: return nil // Writeback
        default: return 3 // Composite, TV, USB, unknown
        }
    }
}

/// One DRM card (a /dev/dri/cardN node).
public struct DRMCardDescription: Codable, Hashable, Sendable {
    public var path: String
    /// The kernel driver's name ("vc4", "bochs-drm", "virtio_gpu", "v3d").
    public var driver: String
    /// DRM_CAP_DUMB_BUFFER: whether it can make buffers the CPU draws into.
    public var supportsDumbBuffers: Bool
    public var crtcIDs: [UInt32]
    public var encoders: [DRMEncoderDescription]
    public var connectors: [DRMConnectorDescription]

    public init(path: String, driver: String, supportsDumbBuffers: Bool, crtcIDs: [UInt32],
                encoders: [DRMEncoderDescription], connectors: [DRMConnectorDescription]) {
        self.path = path
        self.driver = driver
        self.supportsDumbBuffers = supportsDumbBuffers
        self.crtcIDs = crtcIDs
        self.encoders = encoders
        self.connectors = connectors
    }
}
