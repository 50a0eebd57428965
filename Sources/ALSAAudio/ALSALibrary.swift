internal import CALSA

/// Facts about the ALSA library in use.
public enum ALSALibrary {
    /// alsa-lib's run-time version, for `stillroomd --version` and bug reports.
    public static var version: String { String(cString: snd_asoundlib_version()) }
}
