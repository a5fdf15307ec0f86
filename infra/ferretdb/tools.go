//go:build tools

// Package tools records the FerretDB command as a dependency of this helper
// module, so `go mod tidy` keeps go.mod/go.sum complete for
// github.com/FerretDB/FerretDB/cmd/ferretdb. It is never compiled into anything
// (the "tools" build tag is never set). scripts/infra.sh builds the binary.
package tools

import _ "github.com/FerretDB/FerretDB/cmd/ferretdb"
