Pod::Spec.new do |s|
  s.name             = '{{name}}'
  s.version          = '{{version}}'
  s.summary          = '{{summary}}'
  s.homepage         = '{{homepage}}'
  s.license          = { :type => '{{license}}', :file => 'LICENSE' }
  s.author           = { '{{author}}' => '' }
  s.source           = { :git => '{{git_url}}', :tag => s.version.to_s }
  s.ios.deployment_target = '{{ios_deployment_target}}'
  s.swift_versions   = ['5.9']

  # The version guard written by `modkit guard` is part of the pod.
  s.source_files        = 'Sources/{{name}}/**/*.{h,m,swift}', '{{generated_dir}}/*.{h,swift}'

  s.test_spec 'Tests' do |t|
    t.source_files = 'Tests/{{name}}Tests/**/*.swift'
  end
end
