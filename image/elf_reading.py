"""Reading ELF files for the image's build: sections, the dynamic section's entries, the dynamic symbols
and the FDO .note.dlopen notes. Any ELF class, byte order and machine: the arm64 daemon is read on an
amd64 builder. Used by image/dlopen-sonames and image/drop-unused-libraries."""
import json
import struct
from collections import namedtuple

Section = namedtuple("Section", "name offset size link body")

# .note.dlopen (https://systemd.io/ELF_DLOPEN_METADATA/): owner "FDO", this type, a JSON array.
NOTE_TYPE = 0x407C0C0A
DT_NULL, DT_NEEDED = 0, 1
SHN_UNDEF = 0
# STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE: the bindings another object can bind to.
BINDABLE = {1, 2, 10}


class ElfFile:
    def __init__(self, data):
        if data[:4] != b"\x7fELF":
            raise ValueError("not an ELF file")
        self.data = data
        self.wide = data[4] == 2
        self.order = "<" if data[5] == 1 else ">"
        if self.wide:
            shoff, = struct.unpack_from(self.order + "Q", data, 0x28)
            entsize, count, names_index = struct.unpack_from(self.order + "HHH", data, 0x3A)
            layout = self.order + "IIQQQQIIQQ"
        else:
            shoff, = struct.unpack_from(self.order + "I", data, 0x20)
            entsize, count, names_index = struct.unpack_from(self.order + "HHH", data, 0x2E)
            layout = self.order + "IIIIIIIIII"
        headers = [struct.unpack_from(layout, data, shoff + index * entsize) for index in range(count)]
        names = headers[names_index]
        self.sections = []
        for header in headers:
            name_offset, offset, size, link = header[0], header[4], header[5], header[6]
            start = names[4] + name_offset
            name = data[start:data.index(b"\0", start)].decode()
            self.sections.append(Section(name, offset, size, link, data[offset:offset + size]))

    @classmethod
    def read(cls, path):
        with open(path, "rb") as file:
            return cls(file.read())

    def section(self, name):
        return next((section for section in self.sections if section.name == name), None)

    def string(self, table, offset):
        return table.body[offset:table.body.index(b"\0", offset)].decode()

    @property
    def dynamic_entry_format(self):
        return self.order + ("qQ" if self.wide else "iI")

    def dynamic_entries(self):
        """(tag, value) of the dynamic section, up to and without its DT_NULL."""
        dynamic = self.section(".dynamic")
        if dynamic is None:
            return []
        size = struct.calcsize(self.dynamic_entry_format)
        entries = []
        for position in range(0, dynamic.size - size + 1, size):
            tag, value = struct.unpack_from(self.dynamic_entry_format, dynamic.body, position)
            if tag == DT_NULL:
                break
            entries.append((tag, value))
        return entries

    def needed(self):
        """The DT_NEEDED sonames, in order."""
        dynamic = self.section(".dynamic")
        if dynamic is None:
            return []
        strings = self.sections[dynamic.link]
        return [self.string(strings, value) for tag, value in self.dynamic_entries() if tag == DT_NEEDED]

    def dynamic_symbols(self):
        """(defined, undefined): the names in .dynsym another object can bind to, and those it needs."""
        symbols = self.section(".dynsym")
        if symbols is None:
            return set(), set()
        strings = self.sections[symbols.link]
        layout = self.order + ("IBBHQQ" if self.wide else "IIIBBH")
        size = struct.calcsize(layout)
        defined, undefined = set(), set()
        for position in range(size, symbols.size - size + 1, size):  # entry 0 is the null symbol
            fields = struct.unpack_from(layout, symbols.body, position)
            if self.wide:
                name_offset, info, _, index = fields[0], fields[1], fields[2], fields[3]
            else:
                name_offset, info, index = fields[0], fields[3], fields[5]
            name = self.string(strings, name_offset)
            if not name or info >> 4 not in BINDABLE:
                continue
            (undefined if index == SHN_UNDEF else defined).add(name)
        return defined, undefined

    def dlopen_notes(self):
        """The JSON arrays of every FDO dlopen note."""
        for section in self.sections:
            if section.name != ".note.dlopen":
                continue
            body, position = section.body, 0
            while position + 12 <= len(body):
                name_size, description_size, note_type = struct.unpack_from(self.order + "III", body, position)
                position += 12
                owner = body[position:position + name_size].rstrip(b"\0")
                position += (name_size + 3) & ~3
                description = body[position:position + description_size].rstrip(b"\0")
                position += (description_size + 3) & ~3
                if owner == b"FDO" and note_type == NOTE_TYPE:
                    yield json.loads(description)

    def dlopen_sonames(self):
        return {soname for note in self.dlopen_notes() for entry in note for soname in entry.get("soname", [])}
