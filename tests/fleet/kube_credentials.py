"""Credentials for the kube-apiserver tests (tests/fleet/kube.py): certificates made with
openssl, and kubeconfig files in the layout kubectl writes, one per way a Kubernetes user is
given credentials."""
import base64
import os
import subprocess


def openssl(d, *args):
    subprocess.run(["openssl", *args], cwd=d, check=True, capture_output=True, timeout=30)


def make_pki(d):
    """A CA; a server certificate for 127.0.0.1 and the in-cluster service names; a client
    certificate for the user `ids-cert` (group snowfleet-ids); a service-account key pair.
    EC P-256 keys: generated in milliseconds, where RSA takes a good part of a second."""
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    openssl(d, "req", "-x509", *ec, "-days", "2", "-subj", "/CN=snowfleet-test-ca",
            "-keyout", "ca.key", "-out", "ca.pem")
    san = ("subjectAltName=IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,"
           "DNS:kubernetes.default,DNS:kubernetes.default.svc")
    for name, subj, ext in (("server", "/CN=kube-apiserver", f"{san}\nextendedKeyUsage=serverAuth\n"),
                            ("client", "/O=snowfleet-ids/CN=ids-cert", "extendedKeyUsage=clientAuth\n")):
        with open(os.path.join(d, f"{name}.ext"), "w") as f:
            f.write(ext)
        openssl(d, "req", *ec, "-subj", subj, "-keyout", f"{name}.key", "-out", f"{name}.csr")
        openssl(d, "x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-CAcreateserial", "-days", "2", "-extfile", f"{name}.ext", "-out", f"{name}.pem")
    openssl(d, "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-out", "sa.key")
    openssl(d, "pkey", "-in", "sa.key", "-pubout", "-out", "sa.pub")


def b64(path):
    with open(path, "rb") as f:
        return base64.b64encode(f.read()).decode()


def kubeconfig_yaml(clusters, users, contexts, current):
    """A kubeconfig in the layout `kubectl config view --raw` writes (YAML block style):
    clusters/users/contexts as {name: {field: value}}."""
    def section(kind, items):
        out = [f"{kind}:"]
        for name, fields in items.items():
            key = kind[:-1]
            out.append(f"- {key}:")
            out += [f"    {k}: {v}" for k, v in fields.items()]
            out.append(f"  name: {name}")
        return out
    lines = ["apiVersion: v1", *section("clusters", clusters), *section("contexts", contexts),
             f"current-context: {current}", "kind: Config", "preferences: {}",
             *section("users", users)]
    return "\n".join(lines) + "\n"


def write_kubeconfigs(d, server, namespace, tokens):
    """The kubeconfig files a holder may be given, in d (where make_pki left the PEM files):
    {name: path}. token (CA by absolute path), cert (CA, certificate and key inline as
    -data), cert-files (relative paths: relative to the file's directory), norole (a user
    without the Role), multi (every user as a context; current-context token; a cluster
    with insecure-skip-tls-verify)."""
    ca, cert, key = (os.path.join(d, f) for f in ("ca.pem", "client.pem", "client.key"))
    by_file = {"certificate-authority": ca, "server": server}
    by_data = {"certificate-authority-data": b64(ca), "server": server}
    ctx = {name: {"cluster": cluster, "namespace": namespace, "user": name}
           for name, cluster in (("token", "by-file"), ("cert", "by-data"), ("norole", "by-file"))}
    users = {"token": {"token": tokens["ids-token"]},
             "cert": {"client-certificate-data": b64(cert), "client-key-data": b64(key)},
             "norole": {"token": tokens["ids-norole"]}}
    files = {
        "token": ({"by-file": by_file}, {"token": users["token"]}, {"token": ctx["token"]}, "token"),
        "cert": ({"by-data": by_data}, {"cert": users["cert"]}, {"cert": ctx["cert"]}, "cert"),
        "cert-files": ({"by-file": {"certificate-authority": "ca.pem", "server": server}},
                       {"cert": {"client-certificate": "client.pem", "client-key": "client.key"}},
                       {"cert": ctx["cert"] | {"cluster": "by-file"}}, "cert"),
        "norole": ({"by-file": by_file}, {"norole": users["norole"]}, {"norole": ctx["norole"]}, "norole"),
        "multi": ({"by-file": by_file, "by-data": by_data,
                   "insecure": {"insecure-skip-tls-verify": "true", "server": server}},
                  users, {**ctx, "insecure": {"cluster": "insecure", "namespace": namespace,
                                              "user": "token"}}, "token"),
    }
    paths = {}
    for name, (clusters, us, contexts, current) in files.items():
        paths[name] = os.path.join(d, f"{name}.kubeconfig")
        with open(paths[name], "w") as f:
            f.write(kubeconfig_yaml(clusters, us, contexts, current))
        os.chmod(paths[name], 0o600)
    return paths
