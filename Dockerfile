# syntax=docker/dockerfile:1
# Build: a static binary (no cgo), modules cached between builds.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/bashni ./cmd/bashni
# The data directory, made here: the final image has no shell to make it.
RUN mkdir -p /out/data

# Run: distroless static, non-root, nothing but the binary and CA roots.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/bashni /usr/local/bin/bashni
# The embedded store's file lives in a volume owned by the nonroot user
# (65532 in distroless): WORKDIR alone would make /data as root, and the
# bot could not create its file there. A fresh volume takes this owner.
COPY --from=build --chown=65532:65532 /out/data /data
WORKDIR /data
VOLUME ["/data"]
ENV BASHNI_BOLT_PATH=/data/bashni.db \
    BASHNI_OPS_LISTEN=:9090
EXPOSE 8443 9090
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/bashni"]
CMD ["bot"]
