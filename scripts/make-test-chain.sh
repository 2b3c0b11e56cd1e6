#!/usr/bin/env bash
# Makes the test certificate chains for App Store JWS verification (docs/signatures.md): a test root, an
# intermediate with Apple's WWDR marker OID, a leaf with Apple's receipt-signing OID (all ES256, P-256),
# a leaf that expired in 2021, the intermediate and the leaf without the marker OIDs, and a look-alike
# root (the test root's subject, another key) with an intermediate it signed. Nothing here is trusted unless configured as `appStore.testRootCertificate`.
#
#   scripts/make-test-chain.sh OUT_DIR
#
# The committed copies: Tests/StoreReconImportersTests/Fixtures/jws (the tests) and
# Sources/StoreReconDemo/DemoTestChain.swift (the demo's chain, pasted as base64 DER).
set -euo pipefail
out=${1:?usage: make-test-chain.sh OUT_DIR}
mkdir -p "$out"
cd "$out"
rm -rf ca && mkdir -p ca/new
touch ca/index.txt
echo 1000 > ca/serial
cat > ca.cnf <<'CNF'
[ca]
default_ca = test
[test]
dir = ca
database = ca/index.txt
new_certs_dir = ca/new
serial = ca/serial
default_md = sha256
policy = any
unique_subject = no
copy_extensions = none
[any]
commonName = supplied
organizationName = optional
[root]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[intermediate]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
1.2.840.113635.100.6.2.1 = ASN1:NULL
[plain_intermediate]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[plain_leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
1.2.840.113635.100.6.11.1 = ASN1:NULL
CNF
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key" 2>/dev/null; }
csr() { openssl req -new -key "$1.key" -subj "$2" -out "$1.csr"; }
# sign NAME ISSUER_CERT ISSUER_KEY EXT START END [self]
sign() {
  local extra=()
  if [ "${8:-}" = self ]; then extra=(-selfsign); else extra=(-cert "$2.pem"); fi
  openssl ca -batch -config ca.cnf -notext -md sha256 -keyfile "$3.key" "${extra[@]}" -extensions "$4" \
    -startdate "$5" -enddate "$6" -in "$1.csr" -out "$1.pem" 2>/dev/null
  openssl x509 -in "$1.pem" -outform der -out "$1.der"
  : "$7"
}
key root; csr root "/O=StoreRecon Test/CN=StoreRecon Test Root"
sign root root root root 20200101000000Z 20450101000000Z x self
key intermediate; csr intermediate "/O=StoreRecon Test/CN=StoreRecon Test Intermediate"
sign intermediate root root intermediate 20200101000000Z 20450101000000Z x
key leaf; csr leaf "/O=StoreRecon Test/CN=StoreRecon Test Leaf"
sign leaf intermediate intermediate leaf 20200101000000Z 20450101000000Z x
key expired; csr expired "/O=StoreRecon Test/CN=StoreRecon Test Expired Leaf"
sign expired intermediate intermediate leaf 20200101000000Z 20210101000000Z x
key lookalike; csr lookalike "/O=StoreRecon Test/CN=StoreRecon Test Root"
sign lookalike lookalike lookalike root 20200101000000Z 20450101000000Z x self
csr intermediate "/O=StoreRecon Test/CN=StoreRecon Test Intermediate"
mv intermediate.csr lookalike-intermediate.csr
sign lookalike-intermediate lookalike lookalike intermediate 20200101000000Z 20450101000000Z x
# Without Apple's marker OIDs: the intermediate (same name and key) and the leaf (same key).
csr intermediate "/O=StoreRecon Test/CN=StoreRecon Test Intermediate"
mv intermediate.csr plain-intermediate.csr
sign plain-intermediate root root plain_intermediate 20200101000000Z 20450101000000Z x
csr leaf "/O=StoreRecon Test/CN=StoreRecon Test Plain Leaf"
mv leaf.csr plain-leaf.csr
sign plain-leaf intermediate intermediate plain_leaf 20200101000000Z 20450101000000Z x
# The private scalars (32 bytes, hex) of the keys that sign JWSs: the leaves.
for k in leaf expired; do
  hex=$(openssl pkey -in "$k.key" -text -noout | awk '/^priv:/ { on = 1; next } /^pub:/ { on = 0 } on' |
    tr -d ' :\n')
  printf '%s' "${hex: -64}" > "$k.scalar"
  echo >> "$k.scalar"
done
rm -rf ca ca.cnf ./*.csr
