#version 330 core
// One instanced quad per sprite. The unit quad is in attribute 0; each
// instance carries its center and size, its rotation, depth, texture region
// and color in 32 bytes. The region is an index into a table of page
// rectangles (u0, v0, u1, v1), shared by every sprite that shows it.
layout(location = 0) in vec2 corner;     // (-0.5,-0.5) .. (0.5,0.5)
layout(location = 1) in vec4 posSize;    // center x, y; size w, h
layout(location = 2) in ivec2 turn;      // cos and sin of the rotation, times 16384
layout(location = 3) in float depth;
layout(location = 4) in uint region;     // index into regions; bit 31: snap
layout(location = 5) in vec4 color;      // premultiplied RGBA

uniform mat4 projection;
uniform samplerBuffer regions;

out vec2 uv;
flat out vec4 tint;   // one color a sprite: flat, so llvmpipe sets up no plane for it
flat out float snap;

void main() {
    vec2 p = corner * posSize.zw;
    // A power of two: the division is exact on every GPU.
    float c = float(turn.x) * (1.0 / 16384.0), s = float(turn.y) * (1.0 / 16384.0);
    p = vec2(c * p.x - s * p.y, s * p.x + c * p.y) + posSize.xy;
    gl_Position = projection * vec4(p, depth, 1.0);
    vec4 r = texelFetch(regions, int(region & 0x7fffffffu));
    uv = mix(r.xy, r.zw, corner + 0.5);
    tint = color;
    snap = float(region >> 31);
}
