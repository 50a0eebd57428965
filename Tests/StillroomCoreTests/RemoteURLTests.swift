import Testing
import StillroomCore

@Suite struct RemoteURLTests {
    @Test func parsesSchemeHostPortPathAndQuery() throws {
        let url = try RemoteURL(parsing: "HTTPS://Content.Example:8443/a/b.mp3?v=2&x=%20")
        #expect(url.scheme == .https)
        #expect(url.host == "content.example")
        #expect(url.port == 8443)
        #expect(url.path == "/a/b.mp3")
        #expect(url.query == "v=2&x=%20")
        #expect(url.description == "https://content.example:8443/a/b.mp3?v=2&x=%20")
    }

    @Test func emptyPathBecomesRoot() throws {
        #expect(try RemoteURL(parsing: "https://content.example").path == "/")
        #expect(try RemoteURL(parsing: "https://content.example?q").description == "https://content.example/?q")
    }

    @Test func dotSegmentsAreRemoved() throws {
        #expect(try RemoteURL(parsing: "https://h.example/a/./b/../c.mp3").path == "/a/c.mp3")
        #expect(try RemoteURL(parsing: "https://h.example/../../c.mp3").path == "/c.mp3")
    }

    @Test func parsesIPv6Literals() throws {
        let url = try RemoteURL(parsing: "http://[::1]:8080/x")
        #expect(url.host == "::1")
        #expect(url.isLoopback)
        #expect(url.description == "http://[::1]:8080/x")
    }

    @Test(arguments: [
        ("https://content.example/a.mp3", true),
        ("http://127.0.0.1:8080/a.mp3", true),
        ("http://[::1]/a.mp3", true),
        ("http://localhost/a.mp3", true),
        ("http://LOCALHOST/a.mp3", true),
        ("http://content.example/a.mp3", false),
        ("http://127.0.0.2/a.mp3", false),
        ("http://localhost.evil.example/a.mp3", false),
        ("http://10.0.0.5/a.mp3", false),
    ])
    func downloadPermissionFollowsSchemeAndLoopback(_ text: String, _ permitted: Bool) throws {
        #expect(try RemoteURL(parsing: text).isPermittedForDownload == permitted)
    }

    @Test(arguments: [
        ("", "must not be empty"),
        ("content.example/a.mp3", "is not an absolute URL (expected https://host/path)"),
        ("/a.mp3", "is not an absolute URL (expected https://host/path)"),
        ("ftp://content.example/a.mp3", "uses the scheme \"ftp\"; only https (and http to this box itself) are supported"),
        ("file:///etc/passwd", "uses the scheme \"file\"; only https (and http to this box itself) are supported"),
        ("https://", "has no host"),
        ("https:///a.mp3", "has no host"),
        ("https:content.example/a.mp3", "is not an absolute URL (expected https://host/path)"),
        ("https://user@content.example/", "contains user credentials (\"…@\"), which are not allowed"),
        ("https://content.example:0/", "has an invalid port \"0\"; expected 1-65535"),
        ("https://content.example:65536/", "has an invalid port \"65536\"; expected 1-65535"),
        ("https://content.example:/", "has an invalid port \"\"; expected 1-65535"),
        ("https://content..example/", "has a malformed host \"content..example\""),
        ("https://content_example/", "has a malformed host \"content_example\""),
        ("https://[::1/", "has an unclosed \"[\" in its host"),
        ("https://[zz::1]/", "has a malformed IPv6 address \"[zz::1]\""),
        ("https://content.example/a b.mp3", "contains a space at position 26; write it as %20"),
        ("https://content.example/a.mp3#t=10", "has a fragment (\"#…\"), which a download address cannot use"),
        ("https://content.example/caf\u{E9}.mp3", "has the character U+00E9 'é' at position 28, which is not allowed in a URL; percent-encode it"),
        ("https://content.example/a\\b", "has the character U+005C '\\' at position 26, which is not allowed in a URL; percent-encode it"),
        ("https://content.example/\u{0}", "has the character U+0000 at position 25, which is not allowed in a URL; percent-encode it"),
        ("https://content.example/%zz", "has a malformed percent escape in its path; expected % and two hex digits"),
        ("https://content.example/a?b=%2", "has a malformed percent escape in its query; expected % and two hex digits"),
        ("https://content.example/[x]", "has the character U+005B '[' in its path, which is not allowed there; percent-encode it"),
    ])
    func malformedURLIsRefused(_ text: String, _ reason: String) {
        #expect(throws: InvalidValue(reason)) { try RemoteURL(parsing: text) }
    }

    @Test func overLongURLIsRefused() {
        let text = "https://content.example/" + String(repeating: "a", count: 2100)
        #expect(throws: InvalidValue("is 2124 bytes long; at most 2048 are allowed")) { try RemoteURL(parsing: text) }
    }

    /// The normal examples of RFC 3986 section 5.4.1 (fragments aside: the box refuses them).
    @Test(arguments: [
        ("g:h", nil),
        ("g", "http://a/b/c/g"),
        ("./g", "http://a/b/c/g"),
        ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"),
        ("//g", "http://g/"),
        ("?y", "http://a/b/c/d;p?y"),
        ("g?y", "http://a/b/c/g?y"),
        (";x", "http://a/b/c/;x"),
        ("g;x", "http://a/b/c/g;x"),
        (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"),
        ("..", "http://a/b/"),
        ("../", "http://a/b/"),
        ("../g", "http://a/b/g"),
        ("../..", "http://a/"),
        ("../../", "http://a/"),
        ("../../g", "http://a/g"),
        ("../../../g", "http://a/g"),
        ("/./g", "http://a/g"),
        ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."),
        ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"),
        ("g/./h", "http://a/b/c/g/h"),
        ("g/../h", "http://a/b/c/h"),
        ("https://other.example/x", "https://other.example/x"),
    ] as [(String, String?)])
    func resolvesReferencesAsRFC3986Does(_ reference: String, _ expected: String?) throws {
        let base = try RemoteURL(parsing: "http://a/b/c/d;p?q")
        if let expected {
            #expect(try base.resolving(reference).description == expected)
        } else {
            #expect(throws: InvalidValue("uses the scheme \"g\"; only https (and http to this box itself) are supported")) {
                try base.resolving(reference)
            }
        }
    }

    @Test func resolvesManifestStyleReferences() throws {
        let manifest = try RemoteURL(parsing: "https://content.stillroom.example/remote/manifest.json")
        #expect(try manifest.resolving("steady-rain/audio.mp3").description == "https://content.stillroom.example/remote/steady-rain/audio.mp3")
        #expect(try manifest.resolving("../shared/chime.mp3").description == "https://content.stillroom.example/shared/chime.mp3")
        #expect(throws: InvalidValue("must not be empty")) { try manifest.resolving("") }
        #expect(throws: InvalidValue("contains a space at position 5; write it as %20")) { try manifest.resolving("rain audio.mp3") }
    }
}
