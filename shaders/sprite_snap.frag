#version 330 core
// sprite.frag for linear atlas pages: a Nearest texture there (snap = 1) is
// sampled at the center of the texel under uv, which is exactly what nearest
// filtering returns, so both filters share a page and a batch. (The snap
// costs about 8 % of a fill-bound frame under llvmpipe, so the renderer uses
// this shader only where it is needed.)
in vec2 uv;
flat in vec4 tint;
flat in float snap;

uniform sampler2D tex;

out vec4 fragColor;

void main() {
    vec2 size = vec2(textureSize(tex, 0));
    vec2 st = mix(uv, (floor(uv * size) + 0.5) / size, snap);
    fragColor = texture(tex, st) * tint;
}
