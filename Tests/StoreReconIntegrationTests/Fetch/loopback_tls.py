"""The part every loopback API stand-in shares: serve an HTTP server over TLS on 127.0.0.1, write its
port to a file once it listens (through a temporary name, so the test never reads half a number), and
end after a lifetime so a crashed test leaves no server behind."""
import os
import ssl
import threading


def serve(server, cert, key, port_file, lifetime):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Timer(lifetime, lambda: os._exit(0)).start()
    temporary = port_file + ".tmp"
    with open(temporary, "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(temporary, port_file)
    server.serve_forever()
