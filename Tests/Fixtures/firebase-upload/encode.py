#!/usr/bin/env python3
"""Encodes each *.fields.txt dump here (field number, wire type, value; nested messages in braces)
into the protobuf bytes it describes, gzip'd as the Android SDK gzips an upload (deflate level 6,
mtime 0), or raw when the dump's first line says `# raw`. Writes NAME.pb (and NAME.pb.gz).
Run: python3 encode.py (from this folder). Standard library only."""
import glob, re, struct, zlib

LINE = re.compile(r'^\s*(\d+) \[(varint|len \d+|fixed32|fixed64|double|float)\](?: (.*))?$')


def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def parse(lines, i):
    out = bytearray()
    while i < len(lines):
        line = lines[i]
        if line.strip() == '}':
            return bytes(out), i + 1
        m = LINE.match(line)
        if not m:
            raise SystemExit('unreadable line %d: %r' % (i + 1, line))
        number, kind, value = int(m.group(1)), m.group(2), m.group(3)
        if kind == 'varint':
            out += varint(number << 3) + varint(int(value))
            i += 1
        elif kind in ('fixed64', 'double'):
            out += varint(number << 3 | 1)
            out += struct.pack('<d', float(value)) if kind == 'double' else struct.pack('<Q', int(value))
            i += 1
        elif kind in ('fixed32', 'float'):
            out += varint(number << 3 | 5)
            out += struct.pack('<f', float(value)) if kind == 'float' else struct.pack('<I', int(value))
            i += 1
        elif value == '{':
            inner, i = parse(lines, i + 1)
            out += varint(number << 3 | 2) + varint(len(inner)) + inner
        else:
            text = value[1:-1].encode('utf-8')
            out += varint(number << 3 | 2) + varint(len(text)) + text
            i += 1
    return bytes(out), i


def gzip(data, os_byte):
    deflate = zlib.compressobj(6, zlib.DEFLATED, -15, 8)
    body = deflate.compress(data) + deflate.flush()
    header = bytes([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, os_byte])
    return header + body + struct.pack('<II', zlib.crc32(data) & 0xFFFFFFFF, len(data) & 0xFFFFFFFF)


for path in sorted(glob.glob('*.fields.txt')):
    lines = [l for l in open(path, encoding='utf-8').read().splitlines() if l.strip()]
    options = lines[0] if lines[0].startswith('#') else ''
    lines = [l for l in lines if not l.startswith('#')]
    data, _ = parse(lines, 0)
    name = path[: -len('.fields.txt')]
    open(name + '.pb', 'wb').write(data)
    if 'raw' not in options:
        os_byte = int(re.search(r'os=(\d+)', options).group(1)) if 'os=' in options else 255
        open(name + '.pb.gz', 'wb').write(gzip(data, os_byte))
