#version 330 core
// Premultiplied alpha: the texture and the tint are both premultiplied, and
// blending is ONE, ONE_MINUS_SRC_ALPHA. This is the shader for textures whose
// GL filter is their own (nearest atlas pages, textures of their own); on
// linear atlas pages the renderer uses sprite_snap.frag.
in vec2 uv;
flat in vec4 tint;
flat in float snap;

uniform sampler2D tex;

out vec4 fragColor;

void main() {
    fragColor = texture(tex, uv) * tint;
}
