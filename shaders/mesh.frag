#version 330 core
// Lambert lighting from one fixed direction plus ambient.
in vec3 worldNormal;

uniform vec4 color;

out vec4 fragColor;

void main() {
    vec3 light = normalize(vec3(0.4, 0.7, 1.0));
    float diffuse = max(dot(normalize(worldNormal), light), 0.0);
    fragColor = vec4(color.rgb * (0.3 + 0.7 * diffuse), color.a);
}
