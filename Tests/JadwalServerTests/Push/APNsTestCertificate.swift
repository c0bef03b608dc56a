import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A self-signed certificate for a TLS server on loopback: a P-256 key, `CN=localhost`, and
/// subject alternative names for `localhost` and `127.0.0.1`, made fresh for each test.
struct APNsTestCertificate {
    let certificate: NIOSSLCertificate
    let privateKey: NIOSSLPrivateKey
    let pem: String
    /// The private key as PKCS#8 PEM, for a server outside this process (the Python push service).
    let keyPEM: String

    init(commonName: String = "localhost", now: Date = Date()) throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(commonName) }
        let x509 = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now - 3600,
            notValidAfter: now + 86_400,
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                // Its own trust anchor: the client is given this certificate as its extra CA.
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        var serializer = DER.Serializer()
        try serializer.serialize(x509)
        certificate = try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)
        privateKey = try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)
        pem = try x509.serializeAsPEM().pemString
        keyPEM = key.pemRepresentation
    }
}
