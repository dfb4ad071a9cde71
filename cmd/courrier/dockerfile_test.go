package main

import (
	"os"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestDockerfileCopiesLocalReplacements checks that the image's build
// stage copies every module go.mod replaces with a local directory before
// it downloads the modules: `go mod download` reads the replacement's
// go.mod, and with only go.mod and go.sum copied the image does not build
// (no CI step runs docker, so this test stands in for it).
func TestDockerfileCopiesLocalReplacements(t *testing.T) {
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse("go.mod", gomod, nil)
	if err != nil {
		t.Fatal(err)
	}
	docker, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	before, _, ok := strings.Cut(string(docker), "RUN go mod download")
	if !ok {
		t.Fatal("the Dockerfile no longer runs `go mod download`: update this test")
	}
	for _, r := range f.Replace {
		if !modfile.IsDirectoryPath(r.New.Path) {
			continue
		}
		dir := strings.TrimPrefix(r.New.Path, "./")
		if !strings.Contains(before, "COPY "+dir+" ./"+dir) {
			t.Errorf("go.mod replaces %s with %s, but the Dockerfile does not `COPY %s ./%s` before `go mod download`", r.Old.Path, r.New.Path, dir, dir)
		}
	}
}
