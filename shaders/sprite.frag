#version 330 core
// Premultiplied alpha: the texture and the tint are both premultiplied, and
// blending is ONE, ONE_MINUS_SRC_ALPHA.
in vec2 uv;
in vec4 tint;
flat in float snap;

uniform sampler2D tex;

out vec4 fragColor;

void main() {
    // Atlas pages are sampled linearly; a Nearest texture (snap = 1) is
    // sampled at the center of the texel under uv, which is exactly what
    // nearest filtering returns, so both filters share a page and a batch.
    vec2 size = vec2(textureSize(tex, 0));
    vec2 st = mix(uv, (floor(uv * size) + 0.5) / size, snap);
    fragColor = texture(tex, st) * tint;
}
