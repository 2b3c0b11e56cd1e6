#!/usr/bin/env python3
"""A loopback SMTP server for storerecon's mail tests (aiosmtpd).

Listens on 127.0.0.1 on a free port and writes the port to PORT_FILE once it accepts connections.
Every message received is saved as N.eml (the bytes as received) and N.json: the envelope, the
decoded headers, both text parts and every attachment (file name, content type, base64 of the
decoded bytes), parsed with Python's email package. With --password, AUTH (PLAIN/LOGIN, no TLS) is
required and only USER/PASSWORD is accepted. Stops by itself after --lifetime seconds.

usage: smtp_sink.py --dir DIR --port-file PORT_FILE [--user USER --password PASSWORD] [--lifetime S]
                   [--tls-cert CERT --tls-key KEY [--implicit]]
"""
import argparse
import asyncio
import base64
import email
import email.policy
import json
import os
import signal
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Saver:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        raw = envelope.original_content if envelope.original_content is not None else envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8")
        base = os.path.join(self.directory, str(self.count))
        with open(base + ".eml", "wb") as f:
            f.write(raw)
        message = email.message_from_bytes(raw, policy=email.policy.default)
        text = html = None
        attachments = []
        inline = []
        parts = []
        for part in message.walk():
            parts.append(part.get_content_type())
            if part.is_multipart():
                continue
            if part.get_content_disposition() == "attachment":
                attachments.append({
                    "filename": part.get_filename(),
                    "contentType": part.get_content_type(),
                    "transferEncoding": part.get("Content-Transfer-Encoding", ""),
                    "base64": base64.b64encode(part.get_payload(decode=True)).decode("ascii"),
                })
            elif part.get_content_disposition() == "inline" and part.get("Content-ID"):
                inline.append({
                    "contentId": str(part["Content-ID"]),
                    "contentType": part.get_content_type(),
                    "base64": base64.b64encode(part.get_payload(decode=True)).decode("ascii"),
                })
            elif part.get_content_type() == "text/plain" and text is None:
                text = part.get_content()
            elif part.get_content_type() == "text/html" and html is None:
                html = part.get_content()
        record = {
            "mailFrom": envelope.mail_from,
            "rcptTos": envelope.rcpt_tos,
            "from": str(message["From"]),
            "to": str(message["To"]),
            "subject": str(message["Subject"]),
            "date": str(message["Date"]),
            "messageId": str(message["Message-ID"]),
            "mimeVersion": str(message["MIME-Version"]),
            "contentType": message.get_content_type(),
            "parts": parts,
            "defects": [type(d).__name__ for d in message.defects],
            "text": text,
            "html": html,
            "attachments": attachments,
            "inline": inline,
        }
        tmp = base + ".json.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(record, f)
        os.replace(tmp, base + ".json")
        return "250 OK"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--lifetime", type=float, default=120)
    parser.add_argument("--tls-cert", help="PEM certificate: STARTTLS offered and required")
    parser.add_argument("--tls-key")
    parser.add_argument("--implicit", action="store_true", help="with --tls-cert: TLS from the first byte (smtps)")
    args = parser.parse_args()

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = (isinstance(auth_data, LoginPassword)
              and auth_data.login.decode() == args.user and auth_data.password.decode() == args.password)
        # handled=False: aiosmtpd answers a failure with "535 5.7.8 Authentication credentials invalid".
        return AuthResult(success=ok, handled=False)

    saver = Saver(args.dir)

    context = None
    if args.tls_cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.tls_cert, args.tls_key)

    def factory():
        options = {}
        if args.password is not None:
            options.update(authenticator=authenticator, auth_required=True, auth_require_tls=False)
        if context is not None and not args.implicit:
            options.update(tls_context=context, require_starttls=True)
        return SMTP(saver, **options)

    async def serve():
        loop = asyncio.get_running_loop()
        server = await loop.create_server(
            factory, "127.0.0.1", 0, ssl=context if args.implicit else None)
        port = server.sockets[0].getsockname()[1]
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(str(port))
        os.replace(tmp, args.port_file)
        stop = asyncio.Event()
        # The test stops the sink with SIGTERM (which a parent may have set to be ignored).
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        try:
            await asyncio.wait_for(stop.wait(), timeout=args.lifetime)
        except asyncio.TimeoutError:
            pass
        finally:
            server.close()

    asyncio.run(serve())


if __name__ == "__main__":
    sys.exit(main())
