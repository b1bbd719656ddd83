"""A TLS client that ends its side after its request, through `tagscope proxy`.

Usage: tls_half_close_client.py PROXY_PORT HOST CA_FILE close_notify|ragged

Opens a CONNECT tunnel to HOST:443 through the proxy on 127.0.0.1:PROXY_PORT, speaks TLS with
CA_FILE as its trust (the proxy's CA, which intercepts HOST), sends one Segment `track` request,
then ends its side: with `close_notify`, TLS's own end (a close_notify alert, then a TCP
half-close), or `ragged`, a TCP half-close with no alert. It then reads to the end: prints the HTTP status line of
the answer and how the proxy ended the connection (`end: close_notify`, TLS's own end, or
`end: eof`, a TCP close alone), and exits 0 if an answer came, else 1.

Python's ssl module with memory BIOs, so that the socket's write side can be shut while TLS reads
go on: `SSLSocket.shutdown` would drop the TLS state.
"""

import json
import socket
import ssl
import sys


def main() -> int:
    port, host, ca_file, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(f"CONNECT {host}:443 HTTP/1.1\r\nHost: {host}:443\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            print("the proxy closed before answering CONNECT")
            return 1
        head += chunk
    if not head.startswith(b"HTTP/1.1 200"):
        print("CONNECT refused:", head.split(b"\r\n")[0].decode())
        return 1

    context = ssl.create_default_context(cafile=ca_file)
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_hostname=host)

    def flush() -> None:
        data = outgoing.read()
        if data:
            sock.sendall(data)

    def receive() -> bool:
        data = sock.recv(65536)
        if not data:
            incoming.write_eof()
            return False
        incoming.write(data)
        return True

    while True:
        try:
            tls.do_handshake()
            break
        except ssl.SSLWantReadError:
            flush()
            if not receive():
                print("the connection ended during the handshake")
                return 1
    flush()

    body = json.dumps({"type": "track", "userId": "u-1", "event": "Half Close"}).encode()
    request = (
        f"POST /v1/track HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Authorization: Basic d2s6\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    tls.write(request)
    flush()

    if mode == "close_notify":
        try:
            tls.unwrap()
        except ssl.SSLWantReadError:
            pass
        flush()
    sock.shutdown(socket.SHUT_WR)

    answer = b""
    end = ""
    ended = False
    while not end:
        try:
            data = tls.read(65536)
            answer += data
            if data:
                continue
            # An empty read without an error: the proxy's close_notify came (Python's ssl
            # returns b"" for it once the client has not sent its own).
            end = "close_notify"
        except ssl.SSLWantReadError:
            if ended:
                end = "eof"
        except ssl.SSLZeroReturnError:
            end = "close_notify"
        except ssl.SSLEOFError:
            end = "eof"
        if not end:
            ended = not receive()
    if b"\r\n" not in answer:
        print("no answer before the connection ended (" + end + ")")
        return 1
    print(answer.split(b"\r\n")[0].decode())
    print("end: " + end)
    return 0


if __name__ == "__main__":
    sys.exit(main())
