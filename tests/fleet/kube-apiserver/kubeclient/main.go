// A reference client for the Kubernetes Lease tests: client-go's own kubeconfig and
// in-cluster loading, so the credentials the tests hand to snowfleet (kubeconfig files,
// a service-account directory) are proven to read the way every Kubernetes client reads
// them, and a Lease written by snowfleet is read back as client-go decodes it.
//
//	kubeclient [--kubeconfig PATH] [--context NAME] whoami    user, groups, namespace (JSON)
//	kubeclient --in-cluster whoami                            the same from the pod's files
//	kubeclient [...] lease NAME                               the Lease in the namespace (JSON)
//
// Without --kubeconfig, KUBECONFIG and then ~/.kube/config are read (client-go's rules).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	authv1 "k8s.io/client-go/kubernetes/typed/authentication/v1"
	coordv1 "k8s.io/client-go/kubernetes/typed/coordination/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

const namespaceFile = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"

func load(kubeconfig, kubecontext string, inCluster bool) (*rest.Config, string, error) {
	if inCluster {
		cfg, err := rest.InClusterConfig()
		if err != nil {
			return nil, "", err
		}
		ns, err := os.ReadFile(namespaceFile)
		return cfg, strings.TrimSpace(string(ns)), err
	}
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = kubeconfig
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules,
		&clientcmd.ConfigOverrides{CurrentContext: kubecontext})
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, "", err
	}
	ns, _, err := cc.Namespace()
	return cfg, ns, err
}

func run() error {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file (else KUBECONFIG, else ~/.kube/config)")
	kubecontext := flag.String("context", "", "context to use (else the file's current-context)")
	inCluster := flag.Bool("in-cluster", false, "the pod's service account (KUBERNETES_SERVICE_HOST/PORT and its files)")
	flag.Parse()
	cfg, ns, err := load(*kubeconfig, *kubecontext, *inCluster)
	if err != nil {
		return err
	}
	cfg.Timeout = 10 * time.Second
	ctx := context.Background()
	var out any
	switch {
	case flag.NArg() == 1 && flag.Arg(0) == "whoami":
		r, err := authv1.NewForConfigOrDie(cfg).SelfSubjectReviews().Create(ctx,
			&authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
		if err != nil {
			return err
		}
		out = map[string]any{"user": r.Status.UserInfo.Username, "groups": r.Status.UserInfo.Groups,
			"namespace": ns}
	case flag.NArg() == 2 && flag.Arg(0) == "lease":
		if out, err = coordv1.NewForConfigOrDie(cfg).Leases(ns).Get(ctx, flag.Arg(1), metav1.GetOptions{}); err != nil {
			return err
		}
	default:
		return fmt.Errorf("usage: kubeclient [--kubeconfig PATH] [--context NAME] [--in-cluster] whoami | lease NAME")
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "kubeclient:", err)
		os.Exit(1)
	}
}
