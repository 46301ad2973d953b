// The real kube-apiserver, built from the Go module proxy for the Kubernetes Lease tests
// (scripts/test/kube-apiserver.sh builds and caches it; tests/fleet/kube.py runs it). The same
// main as k8s.io/kubernetes/cmd/kube-apiserver, minus the CronJob time-zone data.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // client-go metrics, as upstream
	_ "k8s.io/component-base/metrics/prometheus/version"  // version metric, as upstream
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	os.Exit(cli.Run(app.NewAPIServerCommand()))
}
