"""A throw-away self-signed certificate for 127.0.0.1, made when serving starts.

Go: none — kschedlearn-only (kube-apiserver generates a self-signed serving certificate the
same way when none is given: ``--cert-dir``, ``MaybeDefaultWithSelfSignedCerts``).

Why TLS at all on loopback: client-go (so kubectl) never sends a bearer token over plain
HTTP, so the token that keeps other local users out needs an HTTPS listener. The key lives in
memory and in a private temporary file that is removed as soon as the ``ssl`` module has read it;
the certificate goes into the kubeconfig as its certificate authority.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import ssl
import tempfile

import attrs


@attrs.frozen
class ServingCert:
    """PEM text of the certificate and its private key."""

    cert_pem: bytes
    key_pem: bytes

    def ssl_context(self) -> ssl.SSLContext:
        """A server-side TLS context holding this certificate."""
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        fd, path = tempfile.mkstemp(prefix="kschedlearn-", suffix=".pem")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(self.cert_pem + self.key_pem)
            ctx.load_cert_chain(path)
        finally:
            os.unlink(path)
        return ctx


def self_signed(host: str = "127.0.0.1", *, days: int = 30) -> ServingCert:
    """A fresh EC P-256 key and a certificate for ``host`` (an IP SAN and a DNS SAN ``localhost``)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"kschedlearn@{host}")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=days))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(host)),
                                                    x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    return ServingCert(
        cert_pem=cert.public_bytes(serialization.Encoding.PEM),
        key_pem=key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()),
    )


__all__ = ["ServingCert", "self_signed"]
