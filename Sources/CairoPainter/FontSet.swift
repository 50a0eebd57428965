internal import CPango
import StillroomCore

/// The font families behind each `FontRole`, and the Debian package that provides them.
///
/// The look uses Inter (SIL Open Font License 1.1, Debian's fonts-inter): screen-first shapes, a
/// tall x-height that stays readable on a 3.5" panel from a pillow, tabular figures for clocks, and
/// wide script coverage; pango falls back through fontconfig for scripts it lacks. "Inter Display"
/// is its cut for large sizes (titles).
public struct FontSet: Hashable, Sendable {
    /// Family for `FontRole.text`.
    public var text: String
    /// Family for `FontRole.display`.
    public var display: String
    /// The Debian package to install when a family is missing (named in the error).
    public var package: String

    public init(text: String, display: String, package: String) {
        self.text = text
        self.display = display
        self.package = package
    }

    public static let standard = FontSet(text: "Inter", display: "Inter Display", package: "fonts-inter")

    public func family(for role: FontRole) -> String {
        switch role {
        case .text: return text
        case .display: return display
        }
    }

    /// Checks through fontconfig (pango's font map) that every family is installed. Without this,
    /// pango would quietly substitute another font and the screen would look subtly wrong.
    public func verify() throws(PainterError) {
        try DrawingLibraries.load()
        let installed = Self.installedFamilies()
        for family in Set([text, display]) where !installed.contains(family.lowercased()) {
            throw PainterError(.fontMissing,
                               "font family \"\(family)\" is not installed: install the Debian package \(package) "
                               + "(apt-get install \(package)); fontconfig knows \(installed.count) families")
        }
    }

    /// Families fontconfig knows, lower-cased.
    static func installedFamilies() -> Set<String> {
        let fontMap = pango_cairo_font_map_new()
        defer { g_object_unref(UnsafeMutableRawPointer(fontMap)) }
        var families: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>?
        var count: Int32 = 0
        pango_font_map_list_families(fontMap, &families, &count)
        defer { g_free(families) }
        var names = Set<String>()
        for index in 0..<Int(count) {
            if let family = families?[index], let name = pango_font_family_get_name(family) {
                names.insert(String(cString: name).lowercased())
            }
        }
        return names
    }
}
