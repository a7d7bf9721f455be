// The entry of every addon remote built with the sdk's rsbuild preset: empty, since the host loads only what the
// remote exposes (see rsbuild-preset.ts). Plain JavaScript, so the preset can point at it from source and from dist.
export {};
